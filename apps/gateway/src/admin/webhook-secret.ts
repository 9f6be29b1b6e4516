import { randomBytes } from 'node:crypto';

export const WEBHOOK_SECRET_PREFIX = 'whsec_';
/** Longest endpoint URL a secret is kept for (it is part of the table's key). */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** A new signing secret: 256 random bits, URL-safe. */
export function generateWebhookSecret(): string {
  return `${WEBHOOK_SECRET_PREFIX}${randomBytes(32).toString('base64url')}`;
}
