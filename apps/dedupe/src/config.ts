import { z } from 'zod';
import { databaseUrlSetting, SharedEnvSchema } from '@jobs/config';
import { SERVICE_ROLES } from '@jobs/db/roles';
import { perProvider, PROVIDERS, ProviderSlugSchema, type ProviderSlug } from '@jobs/contracts';

/** One `provider=ms` pair. */
const ListingLagSchema = z
  .string()
  .regex(/^[a-z_]+=\d+$/, 'expected provider=ms')
  .transform((entry) => ({
    provider: entry.slice(0, entry.indexOf('=')),
    ms: Number(entry.slice(entry.indexOf('=') + 1)),
  }))
  .pipe(z.object({ provider: z.string().pipe(ProviderSlugSchema), ms: z.number().int().min(0).max(86_400_000) }));

/**
 * `slug=ms` pairs, comma-separated: each named provider's listing lag in milliseconds. Every
 * provider at most once; an empty value names none.
 */
export const ListingLagsSchema = z
  .string()
  .transform((text) =>
    text
      .split(',')
      .map((entry) => entry.trim())
      .filter(Boolean),
  )
  .pipe(
    z
      .array(ListingLagSchema)
      .refine((pairs) => new Set(pairs.map((p) => p.provider)).size === pairs.length, 'a provider is named twice'),
  )
  .transform(
    (pairs) => Object.fromEntries(pairs.map((p) => [p.provider, p.ms])) as Partial<Record<ProviderSlug, number>>,
  );

export const DedupeEnvSchema = SharedEnvSchema.extend({
  DATABASE_URL: databaseUrlSetting(SERVICE_ROLES.dedupe),
  HEALTH_PORT: z.coerce.number().int().min(0).max(65535).default(9103),
  /** How often watches and the own index re-read the providers (operator.md): one refresh pass per interval. */
  REFRESH_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
  /** Every stored job is re-verified with its partners within this many passes. */
  REFRESH_BUCKETS: z.coerce.number().int().min(1).max(1_000).default(10),
  /**
   * How late each provider shows a new posting or change: the own crawler's change feed dates a
   * change when it happened, so its pass reads this much further back (a partner's pass asks by
   * the date it listed a posting, which holds its lag). Each provider's measured lag is the
   * provider registry's; these `provider=ms` pairs override it (a deployment measuring otherwise,
   * a benchmark). Too long costs a larger window per pass; too short misses a late posting until
   * its company's round.
   */
  REFRESH_LISTING_LAG_MS: ListingLagsSchema.default({}),
});
export type DedupeConfig = z.infer<typeof DedupeEnvSchema>;

/** Every provider's listing lag: the configured one, else the provider registry's. */
export function listingLags(
  config: Pick<DedupeConfig, 'REFRESH_LISTING_LAG_MS'>,
): Readonly<Record<ProviderSlug, number>> {
  return perProvider((provider) => config.REFRESH_LISTING_LAG_MS[provider] ?? PROVIDERS[provider].listingLagMs);
}
