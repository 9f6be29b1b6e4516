import {
  PARTNER_PROVIDER_SLUGS,
  PROVIDER_SLUGS,
  providerBit,
  providerBits,
  type Filters,
  type OwnIndexScope,
  type ProviderSlug,
} from '@jobs/contracts';
import { Prisma } from '@jobs/db';
import { filtersCondition, partnerAppliedFilters, SqlCondition } from '@jobs/job-filters';

const ALL_PROVIDER_BITS = providerBits(PROVIDER_SLUGS);

export interface OwnIndexQuery {
  filters: Filters;
  scope: OwnIndexScope;
  want: number;
  /** Only jobs that at least this many providers listed (`consensus`). */
  minSources?: number;
  /** The moment `posted_within_days` counts back from. */
  now: Date;
}

/** A condition of the filter registry as Prisma SQL (its values stay bound parameters). */
function toPrismaSql(condition: SqlCondition): Prisma.Sql {
  return Prisma.sql(
    condition.strings,
    ...condition.values.map((value) => (value instanceof SqlCondition ? toPrismaSql(value) : value)),
  );
}

/** Every filter of a search and the plan scope, as one SQL condition on `canonical_jobs j`. */
export function ownIndexCondition({ filters, scope, now }: Omit<OwnIndexQuery, 'want'>): Prisma.Sql {
  const where: Prisma.Sql[] = [toPrismaSql(filtersCondition(filters, now.getTime()))];
  // only jobs a provider routable on the plan has seen: a test on the row (every plan with all
  // seven providers routable may see every stored job)
  const routable = providerBits(scope.providers_routable);
  // The mask is a literal (an integer we computed), not a parameter: the partial indexes of the
  // narrow plans' scopes (migration 20261125030000) only serve a query whose predicate they can prove.
  if (routable !== ALL_PROVIDER_BITS) where.push(Prisma.sql`(j.seen_by & ${Prisma.raw(String(routable | 0))}) <> 0`);
  return Prisma.join(where, ' AND ');
}

/** Where a store page ended: the last job's first sighting and id (the page order). */
export interface StorePageKey {
  firstSeenAt: Date;
  id: string;
}

/**
 * One page of the own index's store for a search, after `after`: every filter of
 * `@jobs/job-filters` in SQL (same meaning, so nothing it keeps is missed), only jobs a provider
 * routable on the account's plan has seen, in a stable order (first_seen_at, then id, both descending; neither moves
 * once a job exists,
 * and jobs first seen during the search sort before the first page and are not re-read), so
 * page after page reads every matching job once.
 */
export function ownIndexPageQuery(
  query: Omit<OwnIndexQuery, 'want'> & { want: number; after: StorePageKey | null },
): Prisma.Sql {
  const condition = ownIndexCondition(query);
  const corroborated =
    query.minSources !== undefined && query.minSources > 1
      ? Prisma.sql`AND ${SOURCES_SEEN} >= ${query.minSources}`
      : Prisma.empty;
  const after = query.after
    ? Prisma.sql`AND (j.first_seen_at, j.id) < (${query.after.firstSeenAt}, ${query.after.id})`
    : Prisma.empty;
  return Prisma.sql`SELECT j.id, j.first_seen_at FROM canonical_jobs j WHERE ${condition} ${corroborated} ${after}
    ORDER BY j.first_seen_at DESC, j.id DESC LIMIT ${query.want}`;
}

/** How many providers saw a job: the bits set in `seen_by` (one bit each). */
const SOURCES_SEEN = Prisma.raw(
  PROVIDER_SLUGS.map((slug) => `((j.seen_by & ${providerBit(slug)}) <> 0)::int`).join(' + '),
);

/** The partners a dry run counts the store's jobs of (`by_provider`). */
const PARTNER_SLUGS = PARTNER_PROVIDER_SLUGS;

/**
 * A dry run's count of the store: every job matching the search's filters within the plan's
 * scope (the jobs the own index leg pages through), those seen by at least `minSources`
 * providers (what `consensus` keeps), those the account already paid for (billing's `paid_jobs`,
 * read here, never written), those matching the part of the filters partners apply themselves
 * (what their totals count), and per partner how many of either it saw (`seen_by`): what their
 * reported totals hold beyond the store is their total less that. One statement over the applied
 * filters' index scan and the account's paid jobs (their primary key), returning integers: no row
 * is loaded.
 */
export function ownIndexCountQuery(
  query: Omit<OwnIndexQuery, 'want'> & { accountId: string; minSources: number },
): Prisma.Sql {
  const condition = ownIndexCondition(query);
  const applied = ownIndexCondition({ ...query, filters: partnerAppliedFilters(query.filters) });
  const full = Prisma.sql`(${condition})`;
  const perPartner = PARTNER_SLUGS.map((slug) => {
    const bit = Prisma.raw(`(j.seen_by & ${providerBit(slug)}) <> 0`);
    return Prisma.sql`count(*) FILTER (WHERE ${full} AND ${bit})::int AS ${Prisma.raw(`"matching_${slug}"`)},
      count(*) FILTER (WHERE ${bit})::int AS ${Prisma.raw(`"applied_${slug}"`)}`;
  });
  return Prisma.sql`SELECT count(*) FILTER (WHERE ${full})::int AS matching,
      count(*) FILTER (WHERE ${full} AND ${SOURCES_SEEN} >= ${query.minSources})::int AS corroborated,
      count(p.job_id) FILTER (WHERE ${full})::int AS paid,
      count(*)::int AS applied,
      ${Prisma.join(perPartner, ', ')}
    FROM canonical_jobs j
    LEFT JOIN paid_jobs p ON p.account_id = ${query.accountId} AND p.job_id = j.id
    WHERE ${applied}`;
}

/** The row of `ownIndexCountQuery` as a dry run's store count. */
export function storeCountOfRow(row: Record<string, number> | undefined): {
  matching: number;
  corroborated: number;
  paid: number;
  applied: number;
  by_provider: { provider: ProviderSlug; matching: number; applied: number }[];
} {
  const at = (name: string) => row?.[name] ?? 0;
  return {
    matching: at('matching'),
    corroborated: at('corroborated'),
    paid: at('paid'),
    applied: at('applied'),
    by_provider: PARTNER_SLUGS.map((provider) => ({
      provider,
      matching: at(`matching_${provider}`),
      applied: at(`applied_${provider}`),
    })),
  };
}
