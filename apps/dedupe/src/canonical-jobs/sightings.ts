// Sightings: a listing the store already has, seen again. Its source's and its job's times move
// forward; nothing else changes unless the listing's fields did (then the merge takes it).
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { ascending, Prisma, type PooledStatements, type SqlReader } from '@jobs/db';
import { listingChangedFields, recordFieldHashes, type UpdateField } from '../lifecycle/job-lifecycle.js';
import type { CanonicalJobRow } from './job-view.js';

/**
 * A sighting of a listing the store knows unchanged is written when it moves the listing's
 * `last_seen_at` by at least this much (or the listing is not listed): a listing's times are at
 * most this far behind the latest search or refresh that saw it. The default refresh interval
 * (docs/decisions/0049-search-sightings-by-the-minute.md, 0051-refresh-sightings-by-the-minute.md).
 */
export const SIGHTING_STEP_MS = 60_000;

/** A record of a listing the store already has: a sighting of its source and job. */
export interface KnownSighting {
  sourceId: string;
  jobId: string;
  seenAt: Date;
  /** The own crawler saw it (confirms the listing live at its origin). */
  verified: boolean;
  record: NormalizedProviderRecord;
  changed: UpdateField[];
}

/** A stored source of a listing: its job and the hashes of the fields it was last seen with. */
export interface KnownSource {
  id: string;
  provider: string;
  provider_job_id: string;
  canonical_job_id: string;
  field_hashes: Record<string, unknown>;
  last_seen_at: Date;
  listed: boolean;
  /** When a read found the listing gone (null while listed). */
  unlisted_at: Date | null;
}

/**
 * Whether a provider's listing of a closed job, seen again, re-lists the job. The own crawler
 * reads the employer's live board, so a listing it shows is the opening live again (its job
 * reopens as a re-listing); a partner may serve a stale copy of a listing gone at its origin, so
 * its listing seen again only marks its source listed (docs/decisions/0021-re-listings.md).
 */
export const relistsClosedJob = (provider: string): boolean => provider === 'own_index';

/**
 * Whether a record of a listing was seen after the read that found the listing gone: an older
 * record (a sweep's part merged late, a search's answer) tells nothing against that read, so it
 * neither lists the source again nor re-lists its job.
 */
export function seenSinceUnlisted(source: Pick<KnownSource, 'unlisted_at'>, record: NormalizedProviderRecord): boolean {
  return source.unlisted_at === null || Date.parse(record.seen_at) > source.unlisted_at.getTime();
}

/** One key per listing: its provider and the provider's id of it. */
export const listingKey = (provider: string, providerJobId: string): string => `${provider}\u0000${providerJobId}`;

/**
 * The stored sources of these listings, in one indexed statement (Prisma's OR of pairs costs more to build than to
 * run).
 */
export function knownSources(db: SqlReader, records: readonly NormalizedProviderRecord[]): Promise<KnownSource[]> {
  if (records.length === 0) return Promise.resolve([]);
  return db.$queryRaw<KnownSource[]>`
    SELECT s.id, s.provider::text AS provider, s.provider_job_id, s.canonical_job_id, s.field_hashes, s.last_seen_at,
      s.listed, s.unlisted_at
    FROM job_sources s JOIN unnest(${records.map((r) => r.provider)}::text[],
      ${records.map((r) => r.provider_job_id)}::text[]) AS v(provider, id)
      ON s.provider = v.provider::provider AND s.provider_job_id = v.id`;
}

/** `record` as a sighting of its stored `source`, with the fields its provider changed since. */
export function sightingOf(
  source: KnownSource,
  record: NormalizedProviderRecord,
  changed: UpdateField[],
): KnownSighting {
  return {
    sourceId: source.id,
    jobId: source.canonical_job_id,
    seenAt: new Date(record.seen_at),
    verified: record.provider === 'own_index',
    record,
    changed,
  };
}

/** A batch's records sorted by what the store makes of them (`findSightings`). */
export interface SortedRecords {
  /** listings the store knows unchanged, whose sighting moves their times (to be written) */
  sightings: KnownSighting[];
  /** listings the store knows unchanged, seen again within `sightingStepMs` of their last written sighting */
  recent: KnownSighting[];
  /** new or changed listings: the merge transaction takes them */
  rest: NormalizedProviderRecord[];
}

/**
 * Sorts a batch's records into sightings (listings the store knows, unchanged since their
 * provider last showed them: no lock, no merge, no lifecycle change can follow) and the rest,
 * which go to the merge transaction. An own-crawler listing no longer listed is among the rest:
 * its job may have closed with it, and seeing it again re-lists that job (`relistsClosedJob`),
 * which the merge decides under the job's lock. One indexed read for the whole batch; nothing
 * written.
 *
 * With `step`, a sighting that would move a listed source's `last_seen_at` by less than `step.ms`
 * is `recent`: it resolves to its job and is not written (searches meet the same listings many
 * times a minute, a refresh at a short interval re-reads them every few seconds, and each write
 * is a row version of the source and of its job). The own crawler's sightings are always
 * written unless `step.verified` (a search's confirm the listing live at once; a refresh's may
 * wait a step like the others).
 */
export async function findSightings(
  db: SqlReader,
  records: readonly NormalizedProviderRecord[],
  step: { ms: number; verified: boolean } = { ms: 0, verified: false },
): Promise<SortedRecords> {
  const known = await knownSources(db, records);
  const bySource = new Map(known.map((k) => [listingKey(k.provider, k.provider_job_id), k]));
  const sorted: SortedRecords = { sightings: [], recent: [], rest: [] };
  for (const record of records) {
    const source = bySource.get(listingKey(record.provider, record.provider_job_id));
    if (
      !source ||
      (!source.listed && relistsClosedJob(record.provider) && seenSinceUnlisted(source, record)) ||
      listingChangedFields(source.field_hashes, record).length > 0
    ) {
      sorted.rest.push(record);
      continue;
    }
    const sighting = sightingOf(source, record, []);
    const recent =
      source.listed &&
      (step.verified || !sighting.verified) &&
      sighting.seenAt.getTime() - source.last_seen_at.getTime() < step.ms;
    (recent ? sorted.recent : sorted.sightings).push(sighting);
  }
  return sorted;
}

/**
 * Sightings of known listings inside a merge transaction (their field hashes rewritten: some
 * changed): two statements for the whole batch instead of two per record. Sightings only move
 * forward (the latest of a job wins), and the own crawler's set `last_verified_at` (it confirms
 * the listing live at its origin). Unchanged listings are written by recordUnchangedSightings.
 */
export async function recordSightings(tx: Prisma.TransactionClient, seen: readonly KnownSighting[]): Promise<void> {
  if (seen.length === 0) return;
  const bySource = latestSightingPerSource(seen);
  await tx.$executeRaw`
    UPDATE job_sources AS s
    SET last_seen_at = v.seen_at, listed = true, unlisted_at = NULL, closed_reason = NULL, field_hashes = v.field_hashes
    FROM unnest(
      ${bySource.map((k) => k.sourceId)}::text[],
      ${bySource.map((k) => k.seenAt.toISOString())}::text[]::timestamptz[],
      ${bySource.map((k) => JSON.stringify(recordFieldHashes(k.record)))}::text[]::jsonb[]
    ) AS v(id, seen_at, field_hashes)
    WHERE s.id = v.id AND (s.unlisted_at IS NULL OR v.seen_at > s.unlisted_at)`;
  await tx.$executeRaw(jobSightingsUpdate(seen));
}

/**
 * The sightings of unchanged listings in one statement (its sources' and its jobs' rows, no
 * transaction around it: one statement is atomic). Times only move forward (GREATEST), so
 * sightings written in any order leave the latest; a row already as new is not rewritten. An
 * own-crawler source unlisted since it was read (a closure in between) is left as it is: listing
 * it here would leave its closed job closed, while the next read takes it to the merge, which
 * re-lists the job (`findSightings`).
 */
export async function recordUnchangedSightings(
  db: Pick<PooledStatements, '$executeRaw'>,
  seen: readonly KnownSighting[],
): Promise<void> {
  if (seen.length === 0) return;
  const sources = latestSightingPerSource(seen);
  await db.$executeRaw`
      WITH sources AS (
        UPDATE job_sources AS s
        SET last_seen_at = GREATEST(s.last_seen_at, v.seen_at), listed = true, unlisted_at = NULL, closed_reason = NULL
        FROM unnest(${sources.map((k) => k.sourceId)}::text[],
          ${sources.map((k) => k.seenAt.toISOString())}::text[]::timestamptz[]) AS v(id, seen_at)
        WHERE s.id = v.id AND (s.last_seen_at < v.seen_at OR NOT s.listed)
          AND (s.listed OR s.provider <> 'own_index')
          AND (s.unlisted_at IS NULL OR v.seen_at > s.unlisted_at)
        RETURNING 1
      )
      ${jobSightingsUpdate(seen)}`;
}

/** A stored job that only met another listing: its sighting and p_real. */
export interface JobSighting {
  id: string;
  lastSeenAt: Date;
  pReal: number;
  lastVerifiedAt: Date | null;
}

/** The sightings of stored jobs that new listings met, in one statement (id order, as every writer locks them). */
export async function writeJobSightings(tx: Prisma.TransactionClient, writes: readonly JobSighting[]): Promise<void> {
  if (writes.length === 0) return;
  const rows = [...writes].sort((a, b) => ascending(a.id, b.id));
  await tx.$executeRaw`
    UPDATE canonical_jobs AS j
    SET last_seen_at = v.last_seen_at, p_real = v.p_real, last_verified_at = COALESCE(v.last_verified_at,
      j.last_verified_at), updated_at = now()
    FROM unnest(
      ${rows.map((u) => u.id)}::text[],
      ${rows.map((u) => u.lastSeenAt.toISOString())}::text[]::timestamptz[],
      ${rows.map((u) => u.pReal)}::float8[],
      ${rows.map((u) => u.lastVerifiedAt?.toISOString() ?? null)}::text[]::timestamptz[]
    ) AS v(id, last_seen_at, p_real, last_verified_at)
    WHERE j.id = v.id`;
}

/**
 * The jobs' side of a batch of sightings, one statement for both writers of sightings (inside a
 * merge and for unchanged listings): last seen moves forward, last verified too where a
 * verifying provider saw the job; rows already as new are left alone.
 */
function jobSightingsUpdate(seen: readonly KnownSighting[]): Prisma.Sql {
  // in id order, as every writer of these rows locks them (see latestSightingPerSource)
  const jobs = [...sightingsByJob(seen)].sort(([a], [b]) => ascending(a, b));
  return Prisma.sql`
      UPDATE canonical_jobs AS j
      SET last_seen_at = GREATEST(j.last_seen_at, v.seen_at), last_verified_at = GREATEST(j.last_verified_at,
        v.verified_at)
      FROM unnest(
        ${jobs.map(([id]) => id)}::text[],
        ${jobs.map(([, t]) => t.seenAt.toISOString())}::text[]::timestamptz[],
        ${jobs.map(([, t]) => t.verifiedAt?.toISOString() ?? null)}::text[]::timestamptz[]
      ) AS v(id, seen_at, verified_at)
      WHERE j.id = v.id AND (j.last_seen_at < v.seen_at OR v.verified_at > COALESCE(j.last_verified_at, '-infinity'))`;
}

/**
 * Each sighted source's latest sighting, in source id order. Statements that update many rows
 * lock them in the order they meet them (here the array's): every sightings statement takes its
 * rows in id order, so two waves sighting the same listings in different orders lock them in one
 * order and never wait for each other in a cycle (a deadlock PostgreSQL breaks only after
 * `deadlock_timeout`, redelivering the message).
 */
function latestSightingPerSource(seen: readonly KnownSighting[]): KnownSighting[] {
  const bySource = new Map<string, KnownSighting>();
  for (const k of seen) {
    const was = bySource.get(k.sourceId);
    if (!was || k.seenAt >= was.seenAt) bySource.set(k.sourceId, k);
  }
  return [...bySource.values()].sort((a, b) => ascending(a.sourceId, b.sourceId));
}

/**
 * Each sighted job's latest sighting, and when the own crawler last confirmed it (the latest times, whatever the
 * batch's order).
 */
function sightingsByJob(seen: readonly KnownSighting[]): Map<string, { seenAt: Date; verifiedAt: Date | null }> {
  const byJob = new Map<string, { seenAt: Date; verifiedAt: Date | null }>();
  for (const k of seen) {
    const was = byJob.get(k.jobId);
    const verifiedAt = k.verified ? later(k.seenAt, was?.verifiedAt ?? null) : (was?.verifiedAt ?? null);
    byJob.set(k.jobId, { seenAt: later(k.seenAt, was?.seenAt ?? null), verifiedAt });
  }
  return byJob;
}

const later = (a: Date, b: Date | null): Date => (b !== null && b > a ? b : a);

/**
 * Loaded rows as the pending sightings' write will leave them: each job's and each sighted
 * source's last sighting moved forward, the job's last confirmation by the own crawler too (the
 * same rules as `recordUnchangedSightings`, which only moves times forward).
 */
export function asSighted(rows: CanonicalJobRow[], seen: readonly KnownSighting[]): CanonicalJobRow[] {
  if (seen.length === 0) return rows;
  const byJob = sightingsByJob(seen);
  const bySource = new Map<string, Date>();
  for (const k of seen) {
    const key = listingKey(k.record.provider, k.record.provider_job_id);
    bySource.set(key, later(k.seenAt, bySource.get(key) ?? null));
  }
  return rows.map((row) => {
    const sighted = byJob.get(row.id);
    if (!sighted) return row;
    return {
      ...row,
      lastSeenAt: later(sighted.seenAt, row.lastSeenAt),
      lastVerifiedAt: sighted.verifiedAt ? later(sighted.verifiedAt, row.lastVerifiedAt) : row.lastVerifiedAt,
      sources: row.sources.map((source) => {
        const seenAt = bySource.get(listingKey(source.provider, source.providerJobId));
        return seenAt ? { ...source, lastSeenAt: later(seenAt, source.lastSeenAt) } : source;
      }),
    };
  });
}
