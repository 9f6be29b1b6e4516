/**
 * @jobs/webhook-targets: where webhooks may go and how their endpoints' secrets are made.
 * - `checkWebhookUrl(url, { allowPrivate })`: WEBHOOK_ALLOW_PRIVATE at creation time (gateway:
 *   POST /searches, POST /watches answer 400 invalid_request, param webhook_url, when not ok).
 * - `safeLookup(allowPrivate)`: the same rule at connection time (webhook-dispatcher).
 * - `webhookSecretFor(prisma, accountId, url)`: the one create-or-get of signing secrets.
 */
export * from './address-class.js';
export * from './webhook-url.js';
export * from './webhook-secrets.js';
