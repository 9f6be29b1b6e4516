/**
 * Waterfall object.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `providers`, when given, holds 1 to 7 distinct slugs (an empty list would search nothing;
 *   omit it for the plan-determined set). Whether each is on the caller's plan is checked by
 *   the service (`403 plan_required`), not by this schema.
 * - `max_credits` is an integer >= 0; omitted means no cap (null is not accepted).
 */
import { z } from 'zod';
import { PROVIDER_SLUGS, ProviderSlugSchema } from './providers.schema.js';

export const WATERFALL_STRATEGIES = [
  'cheapest_first',
  'freshest_first',
  'max_coverage',
  'consensus',
  'own_only',
] as const;
export const WaterfallStrategySchema = z.enum(WATERFALL_STRATEGIES);
export type WaterfallStrategy = z.infer<typeof WaterfallStrategySchema>;

export const WATERFALL_DEFAULTS = {
  strategy: 'cheapest_first',
  timeout_ms: 10_000,
  min_sources: 2,
} as const satisfies { strategy: WaterfallStrategy; timeout_ms: number; min_sources: number };

export const WATERFALL_LIMITS = {
  timeoutMsMin: 1_000,
  timeoutMsMax: 30_000,
  minSourcesMin: 2,
  minSourcesMax: 7,
} as const;

export const WaterfallSchema = z.strictObject({
  strategy: WaterfallStrategySchema.default(WATERFALL_DEFAULTS.strategy),
  providers: z
    .array(ProviderSlugSchema)
    .min(1)
    .max(PROVIDER_SLUGS.length)
    .refine((slugs) => new Set(slugs).size === slugs.length, 'providers must not repeat a slug')
    .optional(),
  max_credits: z.number().int().min(0).optional(),
  timeout_ms: z
    .number()
    .int()
    .min(WATERFALL_LIMITS.timeoutMsMin)
    .max(WATERFALL_LIMITS.timeoutMsMax)
    .default(WATERFALL_DEFAULTS.timeout_ms),
  min_sources: z
    .number()
    .int()
    .min(WATERFALL_LIMITS.minSourcesMin)
    .max(WATERFALL_LIMITS.minSourcesMax)
    .default(WATERFALL_DEFAULTS.min_sources),
});
export type Waterfall = z.infer<typeof WaterfallSchema>;
export type WaterfallInput = z.input<typeof WaterfallSchema>;
