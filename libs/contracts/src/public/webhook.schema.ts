/** `POST /webhooks/replay` and the `Service-Signature` header of webhook deliveries. */
import { z } from 'zod';
import { EventIdSchema } from './ids.schema.js';

export const WebhookReplayRequestSchema = z.strictObject({ event_id: EventIdSchema });
export type WebhookReplayRequest = z.infer<typeof WebhookReplayRequestSchema>;

export const WebhookReplayResponseSchema = z.strictObject({ event_id: EventIdSchema, status: z.literal('queued') });
export type WebhookReplayResponse = z.infer<typeof WebhookReplayResponseSchema>;

/** `t=<unix_seconds>,v1=<lowercase hex HMAC-SHA256>` as the service sends it. */
export const ServiceSignatureHeaderSchema = z
  .string()
  .regex(/^t=\d+,v1=[0-9a-f]{64}$/, 'Expected t=<unix_seconds>,v1=<64 lowercase hex digits>');
export type ServiceSignatureHeader = z.infer<typeof ServiceSignatureHeaderSchema>;

/** Failed deliveries are retried this many ms after the first failed attempt (before scaling). */
export const WEBHOOK_RETRY_SCHEDULE_MS = [
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  6 * 3_600_000,
  12 * 3_600_000,
  24 * 3_600_000,
] as const;

/** A receiver must answer 2xx within this many ms. */
export const WEBHOOK_RESPONSE_DEADLINE_MS = 10_000;
