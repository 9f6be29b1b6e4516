import { LRUCache } from 'lru-cache';
import type { SecretBox, SecretOwner } from './secret-box.js';

/** What opens a stored secret for its row: a `SecretBox`, or `OpenedSecrets` in front of one. */
export type SecretOpener = Pick<SecretBox, 'open'>;

export interface OpenedSecretsOptions {
  /** Rows whose opened secret is kept at most (the least recently used go first). */
  max?: number;
  /** How long an opened secret is kept after it was opened, in ms. */
  ttlMs?: number;
  /** The clock of the time to live, in ms (tests): `performance.now` by default. */
  now?: () => number;
}

/**
 * Opened signing secrets, kept for a bounded time in front of a `SecretBox`: every delivery to an
 * endpoint signs with the same secret, and opening it (an AES-GCM decryption with its buffers) per
 * delivery would repeat the same work for every one. The key is the sealed value with its row, so a rotation
 * (a new sealed value) or another row never gets a kept answer, and a value that does not open is
 * never kept. A secret stays in memory in the clear at most `ttlMs` after it was opened.
 */
export class OpenedSecrets implements SecretOpener {
  private readonly opened: LRUCache<string, string>;

  constructor(
    private readonly box: SecretOpener,
    options: OpenedSecretsOptions = {},
  ) {
    this.opened = new LRUCache({
      max: options.max ?? 10_000,
      ttl: options.ttlMs ?? 60_000,
      ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
    });
  }

  open(stored: string, owner: SecretOwner): string {
    const key = `${owner.accountId}\u0000${owner.url}\u0000${owner.mode ?? 'live'}\u0000${stored}`;
    const kept = this.opened.get(key);
    if (kept !== undefined) return kept;
    const secret = this.box.open(stored, owner);
    this.opened.set(key, secret);
    return secret;
  }
}
