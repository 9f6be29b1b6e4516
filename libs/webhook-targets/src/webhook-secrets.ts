/**
 * The signing secret of one account's webhook endpoint in one key mode: `whsec_` + 32 random
 * bytes, made on first use and the same until rotated. The webhook-dispatcher owns the table: it
 * makes the secret at the first delivery, or when the gateway asks for it (`POST
 * /v1/webhook_endpoints/secret`, the admin API's `GET /admin/accounts/{id}/webhook-secret`).
 * Live and test secrets of one URL are two rows: a test key's events are signed, read and rotated
 * apart from the live ones.
 *
 * Stored sealed (`SecretBox`). A row still holding a plain secret (written before sealing) is
 * sealed when it is next read here, and `sealLegacySecrets` seals every such row at start-up.
 *
 * Rotation keeps the replaced secret valid for an overlap window: until `previousExpiresAt`,
 * deliveries are signed with both (`signingSecrets`: the new one first), so a receiver can switch
 * to the new secret whenever it likes within the window without refusing a delivery. Rotating
 * again within the window drops the older previous secret (only the last one overlaps).
 */
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@jobs/db';
import type { SecretOpener } from './opened-secrets.js';
import { isSealed, SEALED_PREFIX, type SecretBox, type SecretOwner } from './secret-box.js';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** `whsec_…` and the last 4 characters: enough to tell two secrets apart, nothing to sign with. */
export function secretHint(secret: string): string {
  return `${WEBHOOK_SECRET_PREFIX}…${secret.slice(-4)}`;
}

/** How long a replaced secret stays valid when the caller does not say: one day. */
export const DEFAULT_ROTATION_OVERLAP_SECONDS = 86_400;
/** The longest overlap a rotation may ask for: a week. */
export const MAX_ROTATION_OVERLAP_SECONDS = 7 * 86_400;

/** A new signing secret: 256 random bits, URL-safe. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export type WebhookSecretStore = Pick<PrismaClient, 'webhookEndpointSecret'>;

/** Whose endpoint: the account, its key mode and the URL exactly as given (the row's key). */
export type EndpointOwner = Required<SecretOwner>;

const rowKey = (owner: EndpointOwner) => ({
  accountId_mode_url: { accountId: owner.accountId, mode: owner.mode, url: owner.url },
});

/** The columns a delivery signs from (the dispatcher reads them with its claim). */
export interface StoredSecrets {
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
}

/** The endpoint's current secret and when it was made (created, or last rotated). */
export interface CurrentSecret {
  secret: string;
  createdAt: Date;
}

/** The endpoint's current secret, created if absent (two first uses at once still end with one secret). */
export async function webhookSecretFor(
  store: WebhookSecretStore,
  box: SecretBox,
  owner: EndpointOwner,
): Promise<string> {
  return (await currentWebhookSecret(store, box, owner)).secret;
}

/** `webhookSecretFor` with the moment the secret was made. */
export async function currentWebhookSecret(
  store: WebhookSecretStore,
  box: SecretBox,
  owner: EndpointOwner,
): Promise<CurrentSecret> {
  const { accountId, mode, url } = owner;
  await store.webhookEndpointSecret.createMany({
    data: [{ accountId, mode, url, secret: box.seal(generateWebhookSecret(), owner) }],
    skipDuplicates: true,
  });
  const row = await store.webhookEndpointSecret.findUniqueOrThrow({
    where: rowKey(owner),
    select: { secret: true, createdAt: true, rotatedAt: true },
  });
  const secret = box.open(row.secret, owner);
  if (!isSealed(row.secret)) await sealIfUnchanged(store, box, owner, row.secret);
  return { secret, createdAt: row.rotatedAt ?? row.createdAt };
}

/**
 * The secrets a delivery at `now` is signed with: the current one first, then the previous one
 * while its overlap lasts.
 */
export function signingSecrets(stored: StoredSecrets, box: SecretOpener, owner: SecretOwner, now: Date): string[] {
  const secrets = [box.open(stored.secret, owner)];
  if (
    stored.previousSecret !== null &&
    stored.previousExpiresAt !== null &&
    stored.previousExpiresAt.getTime() > now.getTime()
  ) {
    secrets.push(box.open(stored.previousSecret, owner));
  }
  return secrets;
}

export interface RotateWebhookSecret extends EndpointOwner {
  /** How long the replaced secret stays valid (0: not at all), at most MAX_ROTATION_OVERLAP_SECONDS. */
  previousExpiresInSeconds: number;
  /**
   * The request that asks (its query id): asked again, the rotation it made is answered instead of
   * a second one, whose secret would replace the one the first answer gave.
   */
  rotationId?: string;
  now?: Date;
}

export interface RotatedWebhookSecret {
  secret: string;
  /** When the new secret was made (the rotation's time). */
  createdAt: Date;
  /** Until when the replaced secret still signs deliveries; null when it stopped at once. */
  previousExpiresAt: Date | null;
}

/**
 * Replaces the endpoint's secret (creating one first when it has none), keeping the replaced
 * one for the overlap. A compare-and-set on the sealed value: of two rotations at once, each
 * replaces the secret the other left, never both the same one.
 */
export async function rotateWebhookSecret(
  store: WebhookSecretStore,
  box: SecretBox,
  request: RotateWebhookSecret,
): Promise<RotatedWebhookSecret> {
  const { accountId, mode, url } = request;
  const owner = { accountId, mode, url };
  if (
    !Number.isInteger(request.previousExpiresInSeconds) ||
    request.previousExpiresInSeconds < 0 ||
    request.previousExpiresInSeconds > MAX_ROTATION_OVERLAP_SECONDS
  ) {
    throw new RangeError(`previous_expires_in_seconds: a whole number from 0 to ${MAX_ROTATION_OVERLAP_SECONDS}`);
  }
  await webhookSecretFor(store, box, owner);
  const now = request.now ?? new Date();
  const previousExpiresAt =
    request.previousExpiresInSeconds > 0 ? new Date(now.getTime() + request.previousExpiresInSeconds * 1000) : null;
  for (let attempt = 0; attempt < 10; attempt++) {
    const row = await store.webhookEndpointSecret.findUniqueOrThrow({
      where: rowKey(owner),
      select: { secret: true, rotationId: true, rotatedAt: true, previousExpiresAt: true },
    });
    if (request.rotationId !== undefined && row.rotationId === request.rotationId && row.rotatedAt) {
      return {
        secret: box.open(row.secret, owner),
        createdAt: row.rotatedAt,
        previousExpiresAt: row.previousExpiresAt,
      };
    }
    const secret = generateWebhookSecret();
    const previous =
      previousExpiresAt === null ? null : isSealed(row.secret) ? row.secret : box.seal(row.secret, owner);
    const { count } = await store.webhookEndpointSecret.updateMany({
      where: { accountId, mode, url, secret: row.secret },
      data: {
        secret: box.seal(secret, owner),
        previousSecret: previous,
        previousExpiresAt,
        rotatedAt: now,
        rotationId: request.rotationId ?? null,
      },
    });
    if (count === 1) return { secret, createdAt: now, previousExpiresAt };
  }
  throw new Error('the webhook secret kept changing during its rotation; retry');
}

/**
 * Refuses a `box` that does not open the stored secrets: a replica with another
 * WEBHOOK_SECRETS_KEY than the one they were sealed with would sign no delivery (each attempt
 * failing and claimed again), so it stops at start instead. Tries the newest sealed row; with none
 * stored there is nothing to check.
 */
export async function checkSecretsKey(store: WebhookSecretStore, box: SecretBox): Promise<void> {
  const row = await store.webhookEndpointSecret.findFirst({
    where: { secret: { startsWith: SEALED_PREFIX } },
    orderBy: { createdAt: 'desc' },
    select: { accountId: true, mode: true, url: true, secret: true },
  });
  if (!row) return;
  try {
    box.open(row.secret, row);
  } catch (error) {
    throw new Error(
      'WEBHOOK_SECRETS_KEY does not open the stored webhook secrets: every replica of the gateway and ' +
        'the webhook-dispatcher must have the key they were sealed with',
      { cause: error },
    );
  }
}

/**
 * Seals every row still holding a plain secret, `batch` at a time, each with a compare-and-set
 * (a row rotated meanwhile is left as its rotation wrote it). Answers how many were sealed.
 */
export async function sealLegacySecrets(store: WebhookSecretStore, box: SecretBox, batch = 500): Promise<number> {
  let sealed = 0;
  for (;;) {
    const rows = await store.webhookEndpointSecret.findMany({
      where: { NOT: { secret: { startsWith: SEALED_PREFIX } } },
      select: { accountId: true, mode: true, url: true, secret: true },
      take: batch,
    });
    let progressed = 0;
    for (const row of rows)
      progressed += await sealIfUnchanged(
        store,
        box,
        { accountId: row.accountId, mode: row.mode, url: row.url },
        row.secret,
      );
    sealed += progressed;
    if (rows.length < batch || progressed === 0) return sealed;
  }
}

async function sealIfUnchanged(
  store: WebhookSecretStore,
  box: SecretBox,
  owner: EndpointOwner,
  plain: string,
): Promise<number> {
  const { count } = await store.webhookEndpointSecret.updateMany({
    where: { accountId: owner.accountId, mode: owner.mode, url: owner.url, secret: plain },
    data: { secret: box.seal(plain, owner) },
  });
  return count;
}
