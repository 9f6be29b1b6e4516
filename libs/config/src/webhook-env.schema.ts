import { z } from 'zod';

/**
 * The development default of WEBHOOK_SECRETS_KEY: fine on a developer machine and in the test stacks, refused in
 * production.
 */
export const DEV_WEBHOOK_SECRETS_KEY = 'dev-webhook-secrets-key-change-me';

/**
 * Settings of the services that handle webhook endpoints (the gateway at creation and in the
 * admin API, the webhook-dispatcher at delivery), in one place so both read them alike.
 */
export const WebhookEnvShape = {
  /**
   * Seals webhook signing secrets at rest (AES-256-GCM, key derived with HKDF). Every gateway and
   * dispatcher replica must share it; changing it makes the stored secrets unreadable.
   */
  WEBHOOK_SECRETS_KEY: z.string().min(1).default(DEV_WEBHOOK_SECRETS_KEY),
  /** One DNS query attempt for a webhook host name gives up after this (c-ares `timeout`). */
  WEBHOOK_DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(2_000),
  /** Attempts per query (c-ares `tries`). */
  WEBHOOK_DNS_TRIES: z.coerce.number().int().min(1).max(5).default(2),
  /** A resolved webhook host is reused for its DNS TTL, at most this long. */
  WEBHOOK_DNS_CACHE_MAX_SECONDS: z.coerce.number().int().min(1).max(86_400).default(300),
  /** A host that did not resolve (or not in time) is not asked again for this long. */
  WEBHOOK_DNS_NEGATIVE_CACHE_SECONDS: z.coerce.number().int().min(0).max(3_600).default(30),
  /** DNS servers for webhook hosts (`ip` or `ip:port`, comma-separated); default: the system's. */
  WEBHOOK_DNS_SERVERS: z
    .string()
    .default('')
    .transform((s) =>
      s
        .split(',')
        .map((server) => server.trim())
        .filter(Boolean),
    ),
};
