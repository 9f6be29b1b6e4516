/**
 * Admin API: accounts, credits and keys (operator.md).
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `credits` on create is an integer >= 0; `amount` on top-up an integer >= 1.
 * - Account ids are `acc_...`.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema, UrlSchema } from '../public/common.schema.js';
import { ApiKeyModeSchema, ApiKeySchema } from '../public/headers.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { RateLimitSchema } from '../public/account.schema.js';
import { PlanSchema } from '../public/providers.schema.js';
import {
  WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS,
  WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS,
} from '../public/webhook-endpoint.schema.js';

export const AdminAccountCreateRequestSchema = z.strictObject({
  plan: PlanSchema,
  credits: NonNegativeIntSchema,
  rate_limit: RateLimitSchema.optional(),
});
export type AdminAccountCreateRequest = z.infer<typeof AdminAccountCreateRequestSchema>;

export const AdminAccountCreateResponseSchema = z.strictObject({
  account_id: AccountIdSchema,
  live_key: ApiKeySchema.startsWith('svc_live_'),
  test_key: ApiKeySchema.startsWith('svc_test_'),
});
export type AdminAccountCreateResponse = z.infer<typeof AdminAccountCreateResponseSchema>;

export const AdminAccountParamsSchema = z.strictObject({ account_id: AccountIdSchema });
export type AdminAccountParams = z.infer<typeof AdminAccountParamsSchema>;

export const AdminCreditsRequestSchema = z.strictObject({ amount: z.number().int().min(1) });
export type AdminCreditsRequest = z.infer<typeof AdminCreditsRequestSchema>;

export const AdminCreditsResponseSchema = z.strictObject({ credits_remaining: NonNegativeIntSchema });
export type AdminCreditsResponse = z.infer<typeof AdminCreditsResponseSchema>;

export const AdminKeyCreateRequestSchema = z.strictObject({ mode: ApiKeyModeSchema });
export type AdminKeyCreateRequest = z.infer<typeof AdminKeyCreateRequestSchema>;

export const AdminKeyCreateResponseSchema = z.strictObject({ key: ApiKeySchema });
export type AdminKeyCreateResponse = z.infer<typeof AdminKeyCreateResponseSchema>;

/** `DELETE /keys/{key}` */
export const AdminKeyParamsSchema = z.strictObject({ key: ApiKeySchema });
export type AdminKeyParams = z.infer<typeof AdminKeyParamsSchema>;

/** `GET /accounts/{account_id}/webhook-secret?url=URL` */
export const AdminWebhookSecretQuerySchema = z.strictObject({ url: UrlSchema });
export type AdminWebhookSecretQuery = z.infer<typeof AdminWebhookSecretQuerySchema>;

export const AdminWebhookSecretResponseSchema = z.strictObject({ url: UrlSchema, secret: z.string().min(1) });
export type AdminWebhookSecretResponse = z.infer<typeof AdminWebhookSecretResponseSchema>;

/** Longest overlap a rotation may keep the replaced secret valid for: a week (as the public route). */
export const WEBHOOK_SECRET_MAX_OVERLAP_SECONDS = WEBHOOK_ROTATION_MAX_OVERLAP_SECONDS;

/**
 * `POST /accounts/{account_id}/webhook-secret/rotate`: a new signing secret for the endpoint;
 * the replaced one keeps signing deliveries (a second `v1=`) for `previous_expires_in_seconds`
 * (default one day; 0 ends it at once).
 */
export const AdminWebhookSecretRotateRequestSchema = z.strictObject({
  url: UrlSchema,
  previous_expires_in_seconds: z
    .number()
    .int()
    .min(0)
    .max(WEBHOOK_SECRET_MAX_OVERLAP_SECONDS)
    .default(WEBHOOK_ROTATION_DEFAULT_OVERLAP_SECONDS),
});
export type AdminWebhookSecretRotateRequest = z.infer<typeof AdminWebhookSecretRotateRequestSchema>;

export const AdminWebhookSecretRotateResponseSchema = z.strictObject({
  url: UrlSchema,
  secret: z.string().min(1),
  /** Until when the replaced secret still signs deliveries; null when it stopped at once. */
  previous_expires_at: DateTimeSchema.nullable(),
});
export type AdminWebhookSecretRotateResponse = z.infer<typeof AdminWebhookSecretRotateResponseSchema>;
