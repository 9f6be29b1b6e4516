/**
 * The provider registry: every source a search can ask, and what the services know of each.
 * Everything else reads it: the public slugs and names, the health checks, the refresh lags and
 * `freshest_first`'s order, the part of a search each provider filters itself, the calls'
 * concurrency, retries and circuit breaker, and the provider's bit in `canonical_jobs.seen_by`.
 *
 * Adding a provider is its slug in `PROVIDER_SLUGS` (the public contract), an entry here, its
 * adapter (libs/provider-adapters), its simulated API (libs/sim-world's registry) and a migration
 * adding its slug to the `provider` enum.
 */
import type { Filters } from '../public/filters.schema.js';
import { PROVIDER_SLUGS, type ProviderSlug as Slug } from '../public/providers.schema.js';

/** The cheapest real request a provider answers: its own search asking for one record. */
export interface ProviderProbe {
  method: 'GET' | 'POST';
  /** Path and query under the provider's base URL. */
  path: string;
  /** A POST's JSON body. */
  body?: unknown;
}

/**
 * How a provider applies one filter itself (the adapter sends it with the search):
 * - `exact`: its answer, and the total it reports, hold exactly what the filter keeps;
 * - `single_value`: exactly, when the filter names one value; several are checked once fetched;
 * - `narrows`: by a nearby meaning of its own (its posting date for `posted_within_days`, which
 *   counts from when any source first saw a job), so it only narrows the read: the filter is
 *   checked again once fetched, and the provider's total does not count it.
 * Every filter is checked again on every page, whatever the provider did.
 */
export type FilterApplication = 'exact' | 'single_value' | 'narrows';
export type AppliedFilters = Readonly<Partial<Record<keyof Filters, FilterApplication>>>;

/** How the fetcher calls a provider: concurrency, retries within the caller's deadline and circuit breaker. */
export interface ProviderCallSettings {
  /** Calls to this provider in flight at once, per fetcher replica; the rest queue. */
  maxConcurrent: number;
  /** Extra attempts after a transient failure, only while the deadline allows. */
  retries: number;
  /** Wait before a retry (doubled each time). */
  retryDelayMs: number;
  /** Consecutive failures that open the circuit. */
  breakerThreshold: number;
  /** How long an open circuit refuses calls before one trial call is let through. */
  breakerCooldownMs: number;
  /**
   * A call still unanswered this long counts against the breaker even when the caller's own
   * deadline ends it: a search's deadline may be tight, but one of several seconds that a partner
   * did not answer within says the partner hangs (it answers in well under a second when well).
   */
  stalledAfterMs: number;
}

/** What the services know of one provider. */
export interface ProviderProfile {
  /** The display name (`GET /providers`). */
  name: string;
  /**
   * Its bit in `canonical_jobs.seen_by`, fixed for good: stored rows and the migrations' partial
   * indexes hold it (a plan's mask is written as a literal), so it never follows the slugs' order.
   */
  seenByBit: number;
  /** The health check behind its `GET /providers` status. */
  probe: ProviderProbe;
  /**
   * How late it shows a new posting or a change, as measured of it: the refresh passes reach
   * back this far (dedupe's REFRESH_LISTING_LAG_MS overrides it) and `freshest_first` asks the
   * lowest first. The simulated market shows each provider's postings this late.
   */
  listingLagMs: number;
  /** The filters it applies itself, and how; any other filter is applied once its records are fetched. */
  appliesItself: AppliedFilters;
  calls: ProviderCallSettings;
}

/**
 * 32 calls in flight per provider and fetcher replica: a partner answering in half a second then
 * carries 60 searches a second per replica (at 8, fifteen searches a second at concurrency 16
 * queued behind the slowest partner's slots).
 */
export const STANDARD_CALLS: ProviderCallSettings = {
  maxConcurrent: 32,
  retries: 2,
  retryDelayMs: 100,
  breakerThreshold: 5,
  breakerCooldownMs: 10_000,
  stalledAfterMs: 5_000,
};

/** What every partner's search takes (`partnerFilters` in libs/provider-adapters). */
const PARTNER_APPLIES: AppliedFilters = {
  title_or: 'exact',
  country_code_or: 'single_value',
  company_domain_or: 'exact',
  remote: 'exact',
  posted_within_days: 'narrows',
  // a partner lists open postings only and its total counts those: whatever `include_closed`
  // says, its total counts exactly the postings of its listing that the filter keeps
  include_closed: 'exact',
};

const MINUTE_MS = 60_000;

export const PROVIDERS = {
  own_index: {
    name: 'Own index',
    seenByBit: 1,
    probe: { method: 'GET', path: '/own_index/v1/jobs?limit=1' },
    listingLagMs: 2 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_a: {
    name: 'Provider A',
    seenByBit: 2,
    probe: { method: 'GET', path: '/provider_a/v2/jobs?per_page=1' },
    listingLagMs: 5 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_b: {
    name: 'Provider B',
    seenByBit: 4,
    probe: { method: 'GET', path: '/provider_b/api/search?limit=1' },
    listingLagMs: 15 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_c: {
    name: 'Provider C',
    seenByBit: 8,
    probe: { method: 'GET', path: '/provider_c/v1/search?pageSize=1' },
    listingLagMs: 1 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_d: {
    name: 'Provider D',
    seenByBit: 16,
    probe: { method: 'GET', path: '/provider_d/api/v1/feed?page_size=1' },
    listingLagMs: 30 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_e: {
    name: 'Provider E',
    seenByBit: 32,
    probe: { method: 'GET', path: '/provider_e/select?rows=1' },
    listingLagMs: 60 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
  provider_f: {
    name: 'Provider F',
    seenByBit: 64,
    probe: { method: 'POST', path: '/provider_f/api/search', body: { limit: 1 } },
    listingLagMs: 10 * MINUTE_MS,
    appliesItself: PARTNER_APPLIES,
    calls: STANDARD_CALLS,
  },
} as const satisfies Record<Slug, ProviderProfile>;

/** A value for every provider, from its slug: a per-provider map that cannot miss one. */
export function perProvider<T>(valueOf: (slug: Slug) => T): Record<Slug, T> {
  return Object.fromEntries(PROVIDER_SLUGS.map((slug) => [slug, valueOf(slug)])) as Record<Slug, T>;
}

/** One provider's profile. */
export const providerProfile = (slug: Slug): ProviderProfile => PROVIDERS[slug];

/** The providers from the lowest listing lag to the highest (slug order between equal lags). */
export const FRESHNESS_ORDER: readonly Slug[] = [...PROVIDER_SLUGS].sort(
  (a, b) => PROVIDERS[a].listingLagMs - PROVIDERS[b].listingLagMs,
);

/** A provider's bit in `canonical_jobs.seen_by`. */
export const providerBit = (slug: Slug): number => PROVIDERS[slug].seenByBit;

/** The bits of several providers. */
export function providerBits(slugs: Iterable<Slug>): number {
  let bits = 0;
  for (const slug of slugs) bits |= providerBit(slug);
  return bits;
}
