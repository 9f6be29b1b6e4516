/**
 * Admin API: accounts, credits and keys (operator.md).
 *
 * Spec choices (README material):
 * - `credits` on create is an integer >= 0; `amount` on top-up an integer >= 1.
 * - Account ids are `acc_...`.
 */
import { z } from 'zod';
import { NonNegativeIntSchema, UrlSchema } from '../public/common.schema.js';
import { ApiKeyModeSchema, ApiKeySchema } from '../public/headers.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { RateLimitSchema } from '../public/account.schema.js';
import { PlanSchema } from '../public/providers.schema.js';

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
