/**
 * @jobs/webhook-targets: where webhooks may go and how their endpoints' secrets are made.
 * - `checkWebhookUrl(url, { allowPrivate })`: WEBHOOK_ALLOW_PRIVATE at creation time (gateway:
 *   POST /searches, POST /watches answer 400 invalid_request, param webhook_url, when not ok).
 * - `safeLookup(allowPrivate, resolver)`: the same rule at connection time (webhook-dispatcher).
 * - `HostResolver`: bounded, cached host-name resolution off the thread pool (both).
 * - `SecretBox`: webhook signing secrets sealed at rest (AES-256-GCM under WEBHOOK_SECRETS_KEY);
 *   `OpenedSecrets` keeps opened ones for a bounded time (the dispatcher signs every delivery).
 * - `webhookSecretFor`, `rotateWebhookSecret`, `signingSecrets`: the one create-or-get of signing
 *   secrets, their rotation with an overlap window, and the secrets a delivery signs with.
 */
export * from './address-class.js';
export * from './webhook-url.js';
export * from './webhook-secrets.js';
export * from './host-resolver.js';
export * from './secret-box.js';
export * from './opened-secrets.js';
