/**
 * Provider slugs, plans and the public Provider object.
 *
 * Spec choice: which two partners the Growth plan routes is "not shown", so the plan to
 * provider mapping is not part of the contract; only the seven slugs and the six plans are.
 */
import { z } from 'zod';
import { DateTimeSchema } from './common.schema.js';

/**
 * The seven sources, in the order `GET /providers` lists them and a canonical job's equal-ranked
 * field sources are ordered by: a new provider goes last. Stored data never depends on it. What
 * the services know of each is the provider registry's (`PROVIDERS`, libs/contracts/src/providers).
 */
export const PROVIDER_SLUGS = [
  'own_index',
  'provider_a',
  'provider_b',
  'provider_c',
  'provider_d',
  'provider_e',
  'provider_f',
] as const;
export const ProviderSlugSchema = z.enum(PROVIDER_SLUGS);
export type ProviderSlug = z.infer<typeof ProviderSlugSchema>;

export const PARTNER_PROVIDER_SLUGS = PROVIDER_SLUGS.filter(
  (slug): slug is Exclude<ProviderSlug, 'own_index'> => slug !== 'own_index',
);

export const PLANS = ['free', 'starter', 'growth', 'pro', 'scale', 'enterprise'] as const;
export const PlanSchema = z.enum(PLANS);
export type Plan = z.infer<typeof PlanSchema>;

export const ProviderStatusSchema = z.enum(['operational', 'degraded', 'down']);
export type ProviderStatus = z.infer<typeof ProviderStatusSchema>;

/** Why a provider was dropped from a search (`metadata.providers.failed[].code`). */
export const ProviderFailureCodeSchema = z.enum(['provider_timeout', 'provider_error']);
export type ProviderFailureCode = z.infer<typeof ProviderFailureCodeSchema>;

export const ProviderSchema = z.strictObject({
  slug: ProviderSlugSchema,
  name: z.string().min(1),
  enabled_on_your_plan: z.boolean(),
  status: ProviderStatusSchema,
  last_checked_at: DateTimeSchema,
});
export type Provider = z.infer<typeof ProviderSchema>;

/** `GET /providers`: all seven sources, no pagination. */
export const ProviderListResponseSchema = z.strictObject({
  data: z.array(ProviderSchema).max(PROVIDER_SLUGS.length),
});
export type ProviderListResponse = z.infer<typeof ProviderListResponseSchema>;
