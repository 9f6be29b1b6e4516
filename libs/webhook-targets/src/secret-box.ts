/**
 * Webhook signing secrets at rest: sealed with AES-256-GCM (node:crypto) under a key derived
 * from WEBHOOK_SECRETS_KEY, and bound to their row (account, URL and, for a test row, the mode as
 * additional data), so a sealed value copied onto another endpoint's row does not open. Pure.
 *
 * Stored form: `whenc1.<iv>.<tag>.<ciphertext>` (base64url parts, 12-byte IV, 16-byte tag). A
 * value without the prefix is a secret written before sealing existed (plain `whsec_…`): it
 * still opens, and the next write of its row seals it (`isSealed` tells them apart).
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

export const SEALED_PREFIX = 'whenc1.';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** The row a secret belongs to: part of what is authenticated. */
export interface SecretOwner {
  accountId: string;
  url: string;
  /** The key mode of the events it signs; absent means live. */
  mode?: 'live' | 'test';
}

/** A stored value that does not open under this key, or for this row. */
export class SealedSecretError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SealedSecretError';
  }
}

export class SecretBox {
  private readonly key: Buffer;

  /** `keyMaterial`: WEBHOOK_SECRETS_KEY as configured (any length; production requires 32 bytes or more). */
  constructor(keyMaterial: string) {
    if (keyMaterial.length === 0) throw new RangeError('WEBHOOK_SECRETS_KEY is empty');
    // HKDF turns a passphrase-like variable into a uniform 256-bit key, with its own purpose label.
    this.key = Buffer.from(
      hkdfSync('sha256', keyMaterial, 'jobs-webhook-secrets', 'webhook signing secrets, aes-256-gcm, v1', 32),
    );
  }

  seal(secret: string, owner: SecretOwner): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalData(owner));
    const ciphertext = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    const tag = cipher.getAuthTag().toString('base64url');
    return `${SEALED_PREFIX}${iv.toString('base64url')}.${tag}.${ciphertext.toString('base64url')}`;
  }

  /** The secret of a stored value; a legacy plain value is returned as it is. Throws SealedSecretError. */
  open(stored: string, owner: SecretOwner): string {
    if (!isSealed(stored)) return stored;
    const [iv, tag, ciphertext] = stored
      .slice(SEALED_PREFIX.length)
      .split('.')
      .map((part) => Buffer.from(part, 'base64url'));
    if (!iv || !tag || !ciphertext || iv.length !== IV_BYTES || tag.length !== TAG_BYTES)
      throw new SealedSecretError('malformed sealed webhook secret');
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalData(owner));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch {
      throw new SealedSecretError('a webhook secret does not open: another WEBHOOK_SECRETS_KEY, or another row');
    }
  }
}

export function isSealed(stored: string): boolean {
  return stored.startsWith(SEALED_PREFIX);
}

/**
 * Live rows keep the data they were sealed with before modes existed (their values still open);
 * a test row adds its mode, so a live value copied onto the test row of the same URL does not open.
 */
function additionalData(owner: SecretOwner): Buffer {
  const mode = owner.mode === 'test' ? '\u0000test' : '';
  return Buffer.from(`${owner.accountId}\u0000${owner.url}${mode}`, 'utf8');
}
