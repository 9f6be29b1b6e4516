/** `GET /account`. */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from './common.schema.js';
import { PlanSchema, ProviderSlugSchema } from './providers.schema.js';

export const RateLimitSchema = z.strictObject({
  /** requests allowed per window */
  limit: z.number().int().min(1),
  window_seconds: z.number().int().min(1),
});
export type RateLimit = z.infer<typeof RateLimitSchema>;

export const AccountSchema = z.strictObject({
  plan: PlanSchema,
  credits_remaining: NonNegativeIntSchema,
  credits_reset_at: DateTimeSchema,
  providers_enabled: z.array(ProviderSlugSchema),
  rate_limit: RateLimitSchema,
});
export type Account = z.infer<typeof AccountSchema>;
