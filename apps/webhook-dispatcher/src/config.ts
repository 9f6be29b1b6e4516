import { z } from 'zod';
import { envBoolean, databaseUrlSetting, SharedEnvSchema, WebhookEnvShape } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';

export const DispatcherEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES['webhook-dispatcher']),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9105),
  /** Multiplies the retry schedule (operator.md): 0.001 turns 1 minute into 60 ms. */
  WEBHOOK_RETRY_SCALE: z.coerce.number().positive().max(1000).default(1),
  /** Whether webhooks may go to loopback/private addresses (operator.md); checked at every connection. */
  WEBHOOK_ALLOW_PRIVATE: envBoolean.default(false),
  /** Webhook attempts running at once in this replica. */
  WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(64),
  /**
   * Webhook attempts running at once to one endpoint URL in this replica: enough to keep a busy
   * endpoint's keep-alive connections full while claims make their round trip, with room for the
   * slower round trips of a loaded machine.
   */
  WEBHOOK_ENDPOINT_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(16),
  /**
   * Webhook attempts running at once to one account's endpoints together in this replica: the rest
   * stay for other accounts however many slow endpoints one account has. Above
   * WEBHOOK_CONCURRENCY it bounds nothing.
   */
  WEBHOOK_ACCOUNT_CONCURRENCY: z.coerce.number().int().min(1).max(1000).default(32),
  /** WEBHOOK_SECRETS_KEY and the bounds of webhook host resolution (@jobs/config). */
  ...WebhookEnvShape,
});
export type DispatcherConfig = z.infer<typeof DispatcherEnvSchema>;
export const DISPATCHER_CONFIG = Symbol('DISPATCHER_CONFIG');
