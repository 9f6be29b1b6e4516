/**
 * The signing secret of one account's webhook endpoint: `whsec_` + 32 random bytes, made on
 * first use and the same ever after. One create-or-get shared by the admin API
 * (`GET /admin/accounts/{id}/webhook-secret?url=`) and the webhook-dispatcher (a delivery before
 * any admin call makes it the same way), so both always agree on the secret.
 */
import { randomBytes } from 'node:crypto';
import type { PrismaClient } from '@jobs/db';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** A new signing secret: 256 random bits, URL-safe. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}

export type WebhookSecretStore = Pick<PrismaClient, 'webhookEndpointSecret'>;

/** The endpoint's secret, created if absent (two first uses at once still end with one secret). */
export async function webhookSecretFor(store: WebhookSecretStore, accountId: string, url: string): Promise<string> {
  await store.webhookEndpointSecret.createMany({ data: [{ accountId, url, secret: generateWebhookSecret() }], skipDuplicates: true });
  const row = await store.webhookEndpointSecret.findUniqueOrThrow({ where: { accountId_url: { accountId, url } }, select: { secret: true } });
  return row.secret;
}
