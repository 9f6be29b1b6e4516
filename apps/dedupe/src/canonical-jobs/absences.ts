// Absences: what a refresh listing says is no longer listed, and the jobs that closes.
import {
  PROVIDER_SLUGS,
  type ClosedReason,
  type Filters,
  type NormalizedProviderRecord,
  type ProviderSlug,
} from '@jobs/contracts';
import { Prisma } from '@jobs/db';
import type { JobTrack, LifecycleRecorder } from '../lifecycle/lifecycle-recorder.js';
import { notBoardListing, ofBoard } from '../crawler-boards/board-listings.js';
import { ownIndexCondition } from '../own-index/own-index-query.js';

/**
 * What one part of a refresh sweep (one provider, one scope) says beyond its open records: the
 * openings the own crawler showed closed (with their reasons), and, on the last part of a sweep
 * read whole, that every listed source of this provider for the scope's open jobs not seen
 * since the sweep began is no longer listed. A job none of whose sources is listed closes (with
 * the crawler's reason when it gave one, else `unknown`).
 */
export interface RefreshListing {
  provider: ProviderSlug;
  filters: Filters;
  /** a `listings` sweep's: the listings it read by id (its scope instead of the filters) */
  listingIds?: readonly string[];
  /** a `board` sweep's: the prefix of its board's listing ids (its scope instead of the filters) */
  boardPrefix?: string;
  /** records the listing showed closed (own crawler), with their reasons */
  closed: readonly NormalizedProviderRecord[];
  /** when the sweep asked for its first page: sources seen before were not in its listing */
  since: Date;
  /**
   * this part is its sweep's only part (it holds every listing the sweep saw): its sightings of
   * unchanged listings are written by the step (sightings.ts), and those not written are not absent
   */
  onlyPart?: boolean;
  /** listings (provider ids) this part saw whose sighting was not written: not absent */
  seenUnwritten?: readonly string[];
  /** listings (provider ids) still listed whose items the read skipped: not absent */
  listedUnread?: readonly string[];
  /**
   * a board read standing for the board: every listing id of that board it shows, in any of its
   * parts. The board's other listings are gone from it while this part is matched (a new posting
   * may re-list one), though only the final part unlists them.
   */
  boardListed?: ReadonlySet<string>;
  /** the sweep was read whole and this is its last part: judge absences */
  judgeAbsences: boolean;
  at: Date;
}

/**
 * A refresh part's closures: the sources the crawler showed closed are unlisted with its
 * reason; on a sweep read whole, this provider's listed sources of the scope's open jobs not
 * seen since the sweep began are unlisted (one statement each). A job left with no listed
 * source closes.
 */
export async function applyAbsences(
  tx: Prisma.TransactionClient,
  lifecycle: LifecycleRecorder,
  track: JobTrack,
  refresh: RefreshListing,
): Promise<void> {
  const affected = new Set<string>();
  if (refresh.closed.length > 0) {
    const shown = await tx.$queryRaw<{ canonical_job_id: string }[]>`
      UPDATE job_sources AS s SET listed = false,
        unlisted_at = CASE WHEN s.listed THEN COALESCE(s.unlisted_at, ${refresh.at}) ELSE ${refresh.at} END,
        closed_reason = v.reason
      FROM unnest(${refresh.closed.map((r) => r.provider_job_id)}::text[],
        ${refresh.closed.map((r) => r.closed_reason ?? null)}::text[]) AS v(id, reason)
      WHERE s.provider = ${refresh.provider}::provider AND s.provider_job_id = v.id
        AND (s.listed OR s.closed_reason IS DISTINCT FROM v.reason)
      RETURNING s.canonical_job_id`;
    for (const row of shown) affected.add(row.canonical_job_id);
  }
  if (refresh.judgeAbsences) {
    const scope = refresh.boardPrefix
      ? Prisma.sql`j.status = 'open' AND ${ofBoard(refresh.boardPrefix)}`
      : refresh.listingIds
        ? Prisma.sql`j.status = 'open' AND s.provider_job_id = ANY(${[...refresh.listingIds]}::text[]) AND
            ${notBoardListing}`
        : Prisma.sql`${ownIndexCondition({
            filters: { ...refresh.filters, include_closed: false },
            scope: { providers_routable: [...PROVIDER_SLUGS] },
            now: refresh.at,
          })} AND ${notBoardListing}`;
    const notAbsent = [...(refresh.seenUnwritten ?? []), ...(refresh.listedUnread ?? [])];
    const absent = await tx.$queryRaw<{ canonical_job_id: string }[]>`
      UPDATE job_sources AS s SET listed = false, unlisted_at = ${refresh.at}
      FROM canonical_jobs AS j
      WHERE s.canonical_job_id = j.id AND s.provider = ${refresh.provider}::provider AND s.listed AND s.last_seen_at <
        ${refresh.since} AND ${scope} AND NOT (s.provider_job_id = ANY(${notAbsent}::text[]))
      RETURNING s.canonical_job_id`;
    for (const row of absent) affected.add(row.canonical_job_id);
  }
  if (affected.size === 0) return;
  const jobIds = [...affected];
  await lifecycle.lock(tx, track, jobIds);
  const stillListed = await tx.jobSource.findMany({
    where: { canonicalJobId: { in: jobIds }, listed: true },
    select: { canonicalJobId: true },
    distinct: ['canonicalJobId'],
  });
  const listed = new Set(stillListed.map((s) => s.canonicalJobId));
  // The latest reason a source gave since the job last came back wins: a reason its earlier life
  // ended with (a source unlisted before the re-listing) is not this closing's.
  const reasons = await tx.$queryRaw<Array<{ canonical_job_id: string; closed_reason: ClosedReason }>>`
    SELECT DISTINCT ON (s.canonical_job_id) s.canonical_job_id, s.closed_reason
    FROM job_sources s JOIN canonical_jobs j ON j.id = s.canonical_job_id
    WHERE s.canonical_job_id = ANY(${jobIds}::text[]) AND NOT s.listed AND s.closed_reason IS NOT NULL
      AND (j.reopened_at IS NULL OR s.unlisted_at > j.reopened_at)
    ORDER BY s.canonical_job_id, s.unlisted_at DESC`;
  const reasonByJob = new Map(reasons.map((s) => [s.canonical_job_id, s.closed_reason]));
  const closing = jobIds.filter(
    (jobId) =>
      !listed.has(jobId) &&
      track.before.get(jobId)?.status === 'open' &&
      !track.reposted.has(jobId) &&
      !track.created.has(jobId),
  );
  // one statement per reason (a handful), not per job: a removed board closes thousands at once
  const byReason = new Map<ClosedReason, string[]>();
  for (const jobId of closing) {
    const reason = reasonByJob.get(jobId) ?? 'unknown';
    const ids = byReason.get(reason);
    if (ids) ids.push(jobId);
    else byReason.set(reason, [jobId]);
  }
  for (const [closedReason, ids] of byReason)
    await tx.canonicalJob.updateMany({
      where: { id: { in: ids } },
      data: { status: 'closed', closedReason, closedAt: refresh.at },
    });
  for (const jobId of closing) track.closed.add(jobId);
}
