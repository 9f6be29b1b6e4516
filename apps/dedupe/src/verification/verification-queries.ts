import type { ProviderSlug } from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import type { RoundTimes } from './verification-bound.js';

type Reader = Pick<Prisma.TransactionClient, '$queryRaw'>;

/** One provider's listed sources of open jobs, and how long ago it last saw them. */
export interface ProviderAges {
  provider: ProviderSlug;
  listedSources: number;
  maxAgeSeconds: number;
  p99AgeSeconds: number;
}

/**
 * Per provider, the age of every listed source of an open job: now minus `job_sources.last_seen_at`
 * (the last time that provider's listing was seen, by a refresh sweep or a search; the job's own
 * `last_verified_at` is the own crawler's alone). One statement, one row per provider with such a
 * source. The p99 is `percentile_disc` over ascending ages, taken as the matching `last_seen_at`
 * in descending order so no age is computed per row.
 *
 * It reads every listed source and the open jobs (a hash join, no index on `last_seen_at`:
 * sightings stay HOT updates), a few hundred milliseconds at 250,000 listed sources: run it
 * periodically, never per request.
 */
export async function verificationAges(db: Reader): Promise<ProviderAges[]> {
  const rows = await db.$queryRaw<
    { provider: ProviderSlug; listed_sources: number; max_age_seconds: number; p99_age_seconds: number }[]
  >`
    SELECT s.provider::text AS provider,
      count(*)::int AS listed_sources,
      greatest(0, extract(epoch FROM statement_timestamp() - min(s.last_seen_at)))::float8 AS max_age_seconds,
      greatest(0, extract(epoch FROM statement_timestamp() - percentile_disc(0.99) WITHIN GROUP (ORDER BY s.last_seen_at
        DESC)))::float8 AS p99_age_seconds
    FROM job_sources s
    JOIN canonical_jobs j ON j.id = s.canonical_job_id
    WHERE s.listed AND j.status = 'open'
    GROUP BY s.provider
    ORDER BY 1`;
  return rows.map((r) => ({
    provider: r.provider,
    listedSources: r.listed_sources,
    maxAgeSeconds: r.max_age_seconds,
    p99AgeSeconds: r.p99_age_seconds,
  }));
}

/**
 * Each provider's latest `limit` re-verification rounds, newest first: when each started and
 * when its last sweep ended (null while one is out; a round with no sweep ended as it started).
 */
export async function recentRounds(
  db: Reader,
  providers: readonly ProviderSlug[],
  limit: number,
): Promise<Map<ProviderSlug, RoundTimes[]>> {
  const rows = await db.$queryRaw<{ provider: ProviderSlug; started_at: Date; ended_at: Date | null }[]>`
    SELECT due.provider, r.started_at, CASE WHEN r.open > 0 THEN NULL ELSE coalesce(r.ended_at, r.started_at) END AS
      ended_at
    FROM unnest(${[...providers]}::text[]) AS due(provider)
    JOIN LATERAL (
      SELECT p.started_at,
        (SELECT max(s.finished_at) FROM refresh_sweeps s WHERE s.pass_id = p.id) AS ended_at,
        (SELECT count(*) FROM refresh_sweeps s WHERE s.pass_id = p.id AND s.finished_at IS NULL) AS open
      FROM refresh_passes p
      WHERE p.kind = 'round' AND p.provider = due.provider::provider
      ORDER BY p.started_at DESC LIMIT ${limit}
    ) r ON true
    ORDER BY due.provider, r.started_at DESC`;
  const byProvider = new Map<ProviderSlug, RoundTimes[]>(providers.map((p) => [p, []]));
  for (const row of rows)
    byProvider
      .get(row.provider)
      ?.push({ startedAt: row.started_at.getTime(), endedAt: row.ended_at?.getTime() ?? null });
  return byProvider;
}
