import { Injectable } from '@nestjs/common';
import type { ClosedReason, Filters, NormalizedProviderRecord, ProviderSlug, RankedField } from '@jobs/contracts';
import { ascending, Prisma, PrismaService, type SqlReader } from '@jobs/db';
import {
  CanonicalIndex,
  bestCompanyNames,
  blockingKey,
  decodeFieldSources,
  encodeFieldSources,
  fieldsOfRecord,
  listingChanges,
  normalizeCompanyName,
  normalizeTitle,
  recordToMatch,
  sourceOf,
  type FieldSources,
  type IndexedJobView,
  type MatchFields,
} from '@jobs/matching';
import { titleSearchText } from '@jobs/job-filters';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { LifecycleRecorder, type JobTrack } from '../lifecycle/lifecycle-recorder.js';
import { listingChangedFields, recordFieldHashes, type UpdateField } from '../lifecycle/job-lifecycle.js';
import { ownIndexCondition, providerBits } from '../own-index/own-index-query.js';
import { fieldDiff, fieldUpdateData, fieldWritesStatement, isEmptyDiff, type FieldWrite, type RankedState } from './job-field-writes.js';
import { resolveCompanies, type CompanyIds } from './companies.js';
import { loadJobRows } from './job-rows.js';
import { pRealFor, toJob, type CanonicalJobRow } from './job-view.js';

/** A record of a listing the store already has: a sighting of its source and job. */
interface KnownSighting {
  sourceId: string;
  jobId: string;
  seenAt: Date;
  /** The own crawler saw it (confirms the listing live at its origin). */
  verified: boolean;
  record: NormalizedProviderRecord;
  changed: UpdateField[];
}

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
  /** records the listing showed closed (own crawler), with their reasons */
  closed: readonly NormalizedProviderRecord[];
  /** when the sweep asked for its first page: sources seen before were not in its listing */
  since: Date;
  /** the sweep was read whole and this is its last part: judge absences */
  judgeAbsences: boolean;
  at: Date;
}

/** A search's listings merged: the canonical jobs, and the sightings still to write (see `mergeListings`). */
export interface ListingsMerged {
  rows: CanonicalJobRow[];
  /** the records that can feed a job (not those the own crawler showed closed) */
  recordsIn: number;
  /**
   * How many of those records were merged into an existing canonical job (a search's
   * `duplicates_merged`): each record that resolved to a job which existed before it, stored
   * or made by an earlier record of the batch; a sighting of a listing the store knows counts.
   * A record that made its job does not. At most `recordsIn`.
   */
  merged: number;
  /** Per record, in order: its job and whether it was merged into an existing one (null: skipped). */
  outcomes: Array<{ jobId: string; merged: boolean } | null>;
  /** Writes the batch's sightings of listings the store knew unchanged; call once the answer is out. */
  writeSightings: () => Promise<void>;
}

const ALL_PROVIDERS: ProviderSlug[] = ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f'];

export interface MergeResult {
  jobId: string;
  /** The record joined a canonical job that another provider's record had created. */
  merged: boolean;
  /** The record re-listed its job (same id, `repost_count` up). */
  reposted: boolean;
}

/** A merge result, and whether the job existed before the record (`ListingsMerged.merged`). */
interface MergeOutcome extends MergeResult {
  /**
   * The record resolved to a canonical job that existed before it: stored (its listing known, or
   * matched) or made by an earlier record of the batch. False only for the record that made its job.
   */
  existing: boolean;
}

const RECORD_FIELDS = ['title', 'location', 'employment_type', 'seniority', 'job_family', 'salary', 'description', 'apply_url', 'posted_at'] as const;

type JobWithCompany = Prisma.CanonicalJobGetPayload<{ include: { company: true } }>;

type StoredRow = JobWithCompany & {
  sources: { provider: NormalizedProviderRecord['provider']; providerJobId: string }[];
  keys: { key: string }[];
};

/**
 * Canonical jobs in PostgreSQL, matched by `@jobs/matching`: a record is scored against the open
 * jobs sharing one of its blocking keys (`canonical_job_keys`) and joins the best one or
 * creates a job. A batch is one transaction holding advisory locks on every blocking key of
 * its records, taken in one sorted order (no deadlocks), so two replicas that see one opening
 * at once serialize on a shared key and still make one job. A known (provider,
 * provider_job_id) always keeps its job.
 */
@Injectable()
export class CanonicalJobRepository {
  private readonly lifecycle: LifecycleRecorder;

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {
    this.lifecycle = new LifecycleRecorder(outbox);
  }

  async merge(record: NormalizedProviderRecord): Promise<MergeResult> {
    const [result] = await this.mergeBatch([record]);
    return result!;
  }

  /**
   * Merges records in order (later ones may join jobs earlier ones created); one result per
   * record. In the same transaction: a complete refresh listing's absences (`refresh`), and every
   * lifecycle change (opened, updated, closed, reposted) and company hiring change it made,
   * staged in the outbox exactly once.
   */
  async mergeBatch(records: readonly NormalizedProviderRecord[], refresh?: RefreshListing, finished?: (tx: Prisma.TransactionClient) => Promise<void>): Promise<MergeResult[]> {
    return (await this.mergeOutcomes(records, refresh, finished)).map(({ jobId, merged, reposted }) => ({ jobId, merged, reposted }));
  }

  private async mergeOutcomes(records: readonly NormalizedProviderRecord[], refresh?: RefreshListing, finished?: (tx: Prisma.TransactionClient) => Promise<void>): Promise<MergeOutcome[]> {
    if (records.length === 0 && !refresh) return [];
    let committed: Prisma.TransactionClient | undefined;
    const results = await this.prisma.$transaction(
      async (tx) => {
        committed = tx;
        const merged = await this.mergeInTransaction(tx, records, refresh);
        await finished?.(tx);
        return merged;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    this.outbox.kick(committed);
    return results;
  }

  private async mergeInTransaction(tx: Prisma.TransactionClient, records: readonly NormalizedProviderRecord[], refresh: RefreshListing | undefined): Promise<MergeOutcome[]> {
    const inputs = records.map((r) => recordToMatch(r));
    const keys = [...new Set(inputs.flatMap((i) => i.keys))];
    {
      // one statement, locks taken in ascending lock-id order: every transaction agrees on the order
      await tx.$executeRaw`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(x, 0) AS k FROM unnest(${keys}::text[]) AS x ORDER BY 1) AS locks`;
      // read again under the locks: another replica may have stored some since sightKnown
      const known = await knownSources(tx, records);
      const knownBySource = new Map(known.map((s) => [`${s.provider}\u0000${s.provider_job_id}`, s]));
      const freshKeys = new Set<string>();
      const fresh: NormalizedProviderRecord[] = [];
      records.forEach((r, i) => {
        if (knownBySource.has(`${r.provider}\u0000${r.provider_job_id}`)) return;
        fresh.push(r);
        for (const key of inputs[i]!.keys) freshKeys.add(key);
      });
      const knownSeen: KnownSighting[] = [];
      for (const record of records) {
        const source = knownBySource.get(`${record.provider}\u0000${record.provider_job_id}`);
        if (!source) continue;
        const changed = listingChangedFields(source.field_hashes, record);
        knownSeen.push({ sourceId: source.id, jobId: source.canonical_job_id, seenAt: new Date(record.seen_at), verified: record.provider === 'own_index', record, changed });
      }
      // jobs whose known listings changed at their provider, as they were and as those listings leave them
      const listed = await listingStates(tx, knownSeen);
      const stored = fresh.length > 0 ? await this.candidates(tx, [...freshKeys], fresh) : [];
      // the state each stored job was loaded with: what its update compares against
      const loaded = new Map(stored.map((row) => [row.id, { row, before: rankedStateOfRow(row) }]));

      const index = new CanonicalIndex(() => newId('job'));
      for (const { row, before } of loaded.values()) {
        const state = listed.get(row.id)?.after ?? before;
        index.load({ id: row.id, fields: state.fields, fieldSources: state.sources, keys: row.keys.map((k) => k.key), sources: row.sources });
      }

      const results: MergeOutcome[] = [];
      const touched = new Map<string, { seenAt: Date; sources: NormalizedProviderRecord[]; reposts: number; relisting: NormalizedProviderRecord | null }>();
      for (const record of records) {
        const seenAt = new Date(record.seen_at);
        const source = knownBySource.get(`${record.provider}\u0000${record.provider_job_id}`);
        if (source) {
          results.push({ jobId: source.canonical_job_id, merged: false, existing: true, reposted: false });
          continue;
        }
        const result = index.merge(record);
        // a new listing of a closed job is a re-listing: same id, open again, one more repost
        const relistsClosed = result.merged && !result.reposted && !touched.has(result.jobId) && loaded.get(result.jobId)?.row.status === 'closed';
        const reposted = result.reposted || relistsClosed;
        results.push({ jobId: result.jobId, merged: result.merged, existing: result.merged || result.known, reposted });
        // the same listing twice in one batch: the first one is the source
        if (result.known) continue;
        const entry = touched.get(result.jobId) ?? { seenAt, sources: [], reposts: 0, relisting: null };
        if (seenAt > entry.seenAt) entry.seenAt = seenAt;
        if (reposted) entry.reposts += 1;
        if (relistsClosed) entry.relisting = record;
        entry.sources.push(record);
        touched.set(result.jobId, entry);
      }

      // every job this transaction may change, locked, as it was before
      const track: JobTrack = await this.lifecycle.begin(tx, [...new Set([...knownSeen.map((k) => k.jobId), ...touched.keys()])]);
      for (const jobId of touched.keys()) if (!track.before.has(jobId)) track.created.add(jobId);
      for (const [jobId, entry] of touched) if (entry.reposts > 0 && !track.created.has(jobId)) track.reposted.add(jobId);

      await this.recordSightings(tx, knownSeen);
      const newKeys: { key: string; canonicalJobId: string }[] = [];
      const creates: Prisma.CanonicalJobCreateManyInput[] = [];
      const sightings: SightingWrite[] = [];
      const fieldWrites: FieldWrite[] = [];
      const relists: { write: FieldWrite; storedSources: FieldSources; reposts: number }[] = [];
      const newSources: Prisma.JobSourceCreateManyInput[] = [];
      // companies of the jobs made here and of those that learnt their company's domain
      const learnt = (jobId: string) => {
        const domain = index.job(jobId)!.fields.companyDomain;
        return domain !== null && domain !== loaded.get(jobId)?.before.fields.companyDomain;
      };
      const madeOrMoved = [...touched.keys()].flatMap((jobId) => (!loaded.has(jobId) || learnt(jobId) ? [index.job(jobId)!.fields] : []));
      const fieldsOf = new Map(records.map((r, i) => [r, inputs[i]!.fields]));
      const offers = bestCompanyNames([...touched.values()].flatMap(({ sources }) => sources.map((r) => ({ provider: r.provider, fields: fieldsOf.get(r)! }))));
      const companyIds = await resolveCompanies(tx, madeOrMoved, offers, (openJobIds) => this.lifecycle.lock(tx, track, openJobIds));
      for (const [jobId, { seenAt, sources, reposts, relisting }] of touched) {
        const job = index.job(jobId)!;
        const stored = loaded.get(jobId);
        const before = new Set(stored?.row.keys.map((k) => k.key) ?? []);
        for (const key of job.keys) if (!before.has(key)) newKeys.push({ key, canonicalJobId: jobId });
        // the own crawler seeing the listing confirms it live at its origin
        const crawled = sources.find((r) => r.provider === 'own_index');
        const verifiedAt = crawled ? new Date(crawled.seen_at) : null;
        for (const r of sources) newSources.push(sourceData(jobId, r));
        if (!stored) {
          creates.push({ ...jobCreate(jobId, job, companyIds, sources[0]!, seenAt, verifiedAt, reposts), seenBy: providerBits(sources.map((r) => r.provider)) });
          continue;
        }
        const { row } = stored;
        const sighting = {
          lastSeenAt: seenAt > row.lastSeenAt ? seenAt : row.lastSeenAt,
          pReal: pRealFor(job.providers.size),
          lastVerifiedAt: verifiedAt && (!row.lastVerifiedAt || verifiedAt > row.lastVerifiedAt) ? verifiedAt : null,
        };
        let after: RankedState = { fields: job.fields, sources: job.fieldSources };
        // a closed job listed again: the new listing's posting time, as for any re-listing
        if (relisting) after = { fields: { ...after.fields, postedAt: relisting.posted_at }, sources: { ...after.sources, posted_at: sourceOf(relisting, 'posted_at') } };
        const diff = fieldDiff(stored.before, after);
        const write: FieldWrite = { id: jobId, diff, fields: after.fields, companyId: learnt(jobId) ? companyIds.of(job.fields) : null, sighting };
        listed.delete(jobId);
        if (reposts > 0) relists.push({ write, storedSources: stored.before.sources, reposts });
        else if (!isEmptyDiff(diff) || write.companyId) fieldWrites.push(write);
        else sightings.push({ id: jobId, ...sighting });
      }
      // known listings' changes of jobs no new record met
      for (const [jobId, { before, after }] of listed) {
        const diff = fieldDiff(before, after);
        if (!isEmptyDiff(diff)) fieldWrites.push({ id: jobId, diff, fields: after.fields, companyId: null, sighting: null });
      }
      // set-based: one insert for the new jobs, one for the new sources, one update for the jobs
      // that only met another listing (sighting and p_real), one for those whose fields changed;
      // the rare re-listings one by one
      if (creates.length > 0) await tx.canonicalJob.createMany({ data: creates });
      await writeSightings(tx, sightings);
      if (fieldWrites.length > 0) await tx.$executeRaw(fieldWritesStatement(fieldWrites));
      for (const { write, storedSources, reposts } of relists) {
        // re-listed: same id, one more repost, open again
        const data = { ...fieldUpdateData(write, storedSources), repostCount: { increment: reposts }, status: 'open' as const, closedReason: null, closedAt: null };
        await tx.canonicalJob.update({ where: { id: write.id }, data });
      }
      if (newSources.length > 0) await tx.jobSource.createMany({ data: newSources });
      // stored jobs that new providers saw: their bits, in one statement
      const grown = [...touched].filter(([jobId]) => loaded.has(jobId)).map(([jobId, { sources }]) => ({ jobId, bits: providerBits(sources.map((r) => r.provider)) }));
      if (grown.length > 0) {
        await tx.$executeRaw`
          UPDATE canonical_jobs AS j SET seen_by = j.seen_by | v.bits
          FROM unnest(${grown.map((g) => g.jobId)}::text[], ${grown.map((g) => g.bits)}::int[]) AS v(id, bits)
          WHERE j.id = v.id AND (j.seen_by | v.bits) <> j.seen_by`;
      }
      // a changed title brings its blocking keys along, so later records still meet the job
      for (const k of knownSeen) if (k.changed.includes('title')) for (const key of recordToMatch(k.record).keys) newKeys.push({ key, canonicalJobId: k.jobId });
      if (newKeys.length > 0) await tx.canonicalJobKey.createMany({ data: newKeys, skipDuplicates: true });
      if (refresh) await this.applyAbsences(tx, track, refresh);
      await this.lifecycle.finish(tx, track);
      return results;
    }
  }

  /**
   * Sightings of known listings inside a merge transaction (their field hashes rewritten: some
   * changed): two statements for the whole batch instead of two per record. Sightings only move
   * forward (the latest of a job wins), and the own crawler's set `last_verified_at` (it confirms
   * the listing live at its origin). Unchanged listings are written by recordUnchangedSightings.
   */
  private async recordSightings(tx: Prisma.TransactionClient, seen: readonly KnownSighting[]): Promise<void> {
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
      WHERE s.id = v.id`;
    await tx.$executeRaw(jobSightingsUpdate(seen));
  }

  /**
   * A refresh part's closures: the sources the crawler showed closed are unlisted with its
   * reason; on a sweep read whole, this provider's listed sources of the scope's open jobs not
   * seen since the sweep began are unlisted (one statement each). A job left with no listed
   * source closes.
   */
  private async applyAbsences(tx: Prisma.TransactionClient, track: JobTrack, refresh: RefreshListing): Promise<void> {
    const affected = new Set<string>();
    if (refresh.closed.length > 0) {
      const shown = await tx.$queryRaw<{ canonical_job_id: string }[]>`
        UPDATE job_sources AS s SET listed = false, unlisted_at = COALESCE(s.unlisted_at, ${refresh.at}), closed_reason = v.reason
        FROM unnest(${refresh.closed.map((r) => r.provider_job_id)}::text[], ${refresh.closed.map((r) => r.closed_reason ?? null)}::text[]) AS v(id, reason)
        WHERE s.provider = ${refresh.provider}::provider AND s.provider_job_id = v.id
        RETURNING s.canonical_job_id`;
      for (const row of shown) affected.add(row.canonical_job_id);
    }
    if (refresh.judgeAbsences) {
      const scope = ownIndexCondition({ filters: { ...refresh.filters, include_closed: false }, scope: { providers_routable: ALL_PROVIDERS }, now: refresh.at });
      const absent = await tx.$queryRaw<{ canonical_job_id: string }[]>`
        UPDATE job_sources AS s SET listed = false, unlisted_at = ${refresh.at}
        FROM canonical_jobs AS j
        WHERE s.canonical_job_id = j.id AND s.provider = ${refresh.provider}::provider AND s.listed AND s.last_seen_at < ${refresh.since} AND ${scope}
        RETURNING s.canonical_job_id`;
      for (const row of absent) affected.add(row.canonical_job_id);
    }
    if (affected.size === 0) return;
    const jobIds = [...affected];
    await this.lifecycle.lock(tx, track, jobIds);
    const stillListed = await tx.jobSource.findMany({ where: { canonicalJobId: { in: jobIds }, listed: true }, select: { canonicalJobId: true }, distinct: ['canonicalJobId'] });
    const listed = new Set(stillListed.map((s) => s.canonicalJobId));
    const reasons = await tx.jobSource.findMany({
      where: { canonicalJobId: { in: jobIds }, listed: false, closedReason: { not: null } },
      select: { canonicalJobId: true, closedReason: true },
      orderBy: { unlistedAt: 'asc' },
    });
    // the latest reason a source gave wins
    const reasonByJob = new Map(reasons.map((s) => [s.canonicalJobId, s.closedReason as ClosedReason]));
    for (const jobId of jobIds) {
      if (listed.has(jobId) || track.before.get(jobId)?.status !== 'open' || track.reposted.has(jobId) || track.created.has(jobId)) continue;
      await tx.canonicalJob.update({ where: { id: jobId }, data: { status: 'closed', closedReason: reasonByJob.get(jobId) ?? 'unknown', closedAt: refresh.at } });
      track.closed.add(jobId);
    }
  }

  /**
   * A refresh part of one provider: its listings the store already has, unchanged since this
   * provider last showed them (nearly all of a sweep), are sightings only, written with two
   * statements and no locks (a sighting changes no lifecycle); the rest (new listings, changed
   * ones) and the part's closures go through `mergeBatch`.
   */
  async mergeRefreshPart(records: readonly NormalizedProviderRecord[], refresh: RefreshListing, finished?: (tx: Prisma.TransactionClient) => Promise<void>): Promise<{ sightings: number; merged: number }> {
    const { sightings, rest } = await this.sightKnown(records);
    const needsMerge = rest.length > 0 || refresh.closed.length > 0 || refresh.judgeAbsences || finished !== undefined;
    if (needsMerge) await this.mergeBatch(rest, refresh, finished);
    return { sightings: sightings.length, merged: rest.length };
  }

  /**
   * Sorts a batch's records into sightings (listings the store knows, unchanged since their
   * provider last showed them: no lock, no merge, no lifecycle change can follow) and the rest,
   * which go to the merge transaction. One indexed read for the whole batch; nothing written.
   */
  private async findSightings(records: readonly NormalizedProviderRecord[]): Promise<{ sightings: KnownSighting[]; rest: NormalizedProviderRecord[] }> {
    const known = await knownSources(this.prisma.direct, records);
    const bySource = new Map(known.map((k) => [`${k.provider}\u0000${k.provider_job_id}`, k]));
    const sightings: KnownSighting[] = [];
    const rest: NormalizedProviderRecord[] = [];
    for (const record of records) {
      const source = bySource.get(`${record.provider}\u0000${record.provider_job_id}`);
      if (source && listingChangedFields(source.field_hashes, record).length === 0) {
        sightings.push({ sourceId: source.id, jobId: source.canonical_job_id, seenAt: new Date(record.seen_at), verified: record.provider === 'own_index', record, changed: [] });
      } else rest.push(record);
    }
    return { sightings, rest };
  }

  /** `findSightings`, its sightings written at once. */
  private async sightKnown(records: readonly NormalizedProviderRecord[]): Promise<{ sightings: KnownSighting[]; rest: NormalizedProviderRecord[] }> {
    const found = await this.findSightings(records);
    await this.recordUnchangedSightings(found.sightings);
    return found;
  }

  /**
   * The sightings of unchanged listings in one statement (its sources' and its jobs' rows, no
   * transaction around it: one statement is atomic). Times only move forward (GREATEST), so
   * sightings written in any order leave the latest; a row already as new is not rewritten.
   */
  private async recordUnchangedSightings(seen: readonly KnownSighting[]): Promise<void> {
    if (seen.length === 0) return;
    const sources = latestSightingPerSource(seen);
    await this.prisma.direct.$executeRaw`
      WITH sources AS (
        UPDATE job_sources AS s
        SET last_seen_at = GREATEST(s.last_seen_at, v.seen_at), listed = true, unlisted_at = NULL, closed_reason = NULL
        FROM unnest(${sources.map((k) => k.sourceId)}::text[], ${sources.map((k) => k.seenAt.toISOString())}::text[]::timestamptz[]) AS v(id, seen_at)
        WHERE s.id = v.id AND (s.last_seen_at < v.seen_at OR NOT s.listed)
        RETURNING 1
      )
      ${jobSightingsUpdate(seen)}`;
  }

  load(ids: readonly string[]): Promise<CanonicalJobRow[]> {
    return loadJobRows(this.prisma.direct, ids);
  }

  toJob = toJob;

  /**
   * What providers listed for a search (sync or async; one provider or a whole wave), and the
   * canonical jobs it resolved to in the records' order: listings the store knows unchanged are
   * sightings only (as in a refresh part), the others merged in one transaction. `outcomes`
   * follows `records` (null: skipped). A listing the own crawler shows closed (asked with
   * include_closed) never makes or feeds a job: closures come from refreshes. An outcome is
   * `merged` when its job existed before the record (`ListingsMerged.merged`); a redelivered
   * batch, whose listings the store knows by then, counts each of its records so.
   *
   * The sightings are not written yet: `rows` show them already (their times moved forward as
   * the write will), and the caller writes them with `writeSightings` once it has answered, so
   * that statement is off the search's path. A caller that fails before writing them gets its
   * message again (its offset is not committed) and sights them again.
   */
  async mergeListings(records: readonly NormalizedProviderRecord[]): Promise<ListingsMerged> {
    const live = records.filter((r) => r.status !== 'closed');
    // a repeated search meets listings the store has, unchanged: sightings only, no merge transaction
    const { sightings, rest } = await this.findSightings(live);
    const results = rest.length > 0 ? await this.mergeOutcomes(rest) : [];
    const sighted = new Map(sightings.map((k) => [k.record, k.jobId]));
    const ids = new Set<string>();
    let next = 0;
    const outcomes = records.map((record) => {
      if (record.status === 'closed') return null;
      const known = sighted.get(record);
      // a sighting of a listing the store knows resolved to an existing job: it counts as merged
      const outcome = known !== undefined ? { jobId: known, merged: true } : { jobId: results[next]!.jobId, merged: results[next++]!.existing };
      ids.add(outcome.jobId);
      return outcome;
    });
    const merged = outcomes.filter((o) => o?.merged === true).length;
    const rows = await this.load([...ids]);
    return {
      rows: asSighted(rows, sightings),
      recordsIn: live.length,
      merged: Math.min(merged, live.length),
      outcomes,
      writeSightings: () => this.recordUnchangedSightings(sightings),
    };
  }

  /**
   * Open jobs sharing a blocking key, oldest first (ties in score go to the oldest). Jobs made
   * before blocking keys were stored are found by their legacy `blocking_key` column.
   */
  private async candidates(tx: Prisma.TransactionClient, keys: string[], records: readonly NormalizedProviderRecord[]): Promise<StoredRow[]> {
    const legacy = [...new Set(records.flatMap((r) => legacyBlocks(r)))];
    const jobs = await tx.canonicalJob.findMany({
      // closed jobs too: a new listing of a closed opening re-lists it (same id, repost_count up)
      where: { OR: [{ keys: { some: { key: { in: keys } } } }, { blockingKey: { in: legacy } }] },
      include: { company: true },
      orderBy: [{ firstSeenAt: 'asc' }, { id: 'asc' }],
    });
    if (jobs.length === 0) return [];
    // one query after the other: nested includes would run side by side on the transaction's connection
    const ids = jobs.map((j) => j.id);
    const sources = await tx.jobSource.findMany({ where: { canonicalJobId: { in: ids } }, select: { canonicalJobId: true, provider: true, providerJobId: true, listed: true } });
    const jobKeys = await tx.canonicalJobKey.findMany({ where: { canonicalJobId: { in: ids } }, select: { canonicalJobId: true, key: true } });
    return jobs.map((job) => ({
      ...job,
      sources: sources.filter((s) => s.canonicalJobId === job.id),
      keys: jobKeys.filter((k) => k.canonicalJobId === job.id),
    }));
  }
}

/** A stored job that only met another listing: its sighting and p_real. */
interface SightingWrite {
  id: string;
  lastSeenAt: Date;
  pReal: number;
  lastVerifiedAt: Date | null;
}

/** The sightings of stored jobs that new listings met, in one statement (id order, as every writer locks them). */
async function writeSightings(tx: Prisma.TransactionClient, writes: readonly SightingWrite[]): Promise<void> {
  if (writes.length === 0) return;
  const rows = [...writes].sort((a, b) => ascending(a.id, b.id));
  await tx.$executeRaw`
    UPDATE canonical_jobs AS j
    SET last_seen_at = v.last_seen_at, p_real = v.p_real, last_verified_at = COALESCE(v.last_verified_at, j.last_verified_at), updated_at = now()
    FROM unnest(
      ${rows.map((u) => u.id)}::text[],
      ${rows.map((u) => u.lastSeenAt.toISOString())}::text[]::timestamptz[],
      ${rows.map((u) => u.pReal)}::float8[],
      ${rows.map((u) => u.lastVerifiedAt?.toISOString() ?? null)}::text[]::timestamptz[]
    ) AS v(id, last_seen_at, p_real, last_verified_at)
    WHERE j.id = v.id`;
}

/** A new canonical job's row. */
function jobCreate(jobId: string, job: IndexedJobView, companyIds: CompanyIds, first: NormalizedProviderRecord, seenAt: Date, verifiedAt: Date | null, reposts: number): Prisma.CanonicalJobCreateManyInput {
  const f = job.fields;
  const primary = recordToMatch(first).keys.find((k) => !k.startsWith('u:'))!;
  return {
    id: jobId,
    companyId: companyIds.of(f),
    title: f.title,
    normalizedTitle: normalizeTitle(f.title),
    titleSearch: titleSearchText(f.title),
    city: f.city,
    region: f.region,
    countryCode: f.countryCode,
    remote: f.remote,
    employmentType: f.employmentType,
    seniority: f.seniority,
    jobFamily: f.jobFamily,
    salaryMin: f.salary?.min ?? null,
    salaryMax: f.salary?.max ?? null,
    salaryCurrency: f.salary?.currency ?? null,
    salaryPeriod: f.salary?.period ?? null,
    salaryOrigin: f.salary?.origin ?? null,
    description: f.description,
    applyUrl: f.applyUrl,
    postedAt: f.postedAt ? new Date(f.postedAt) : null,
    fieldSources: encodeFieldSources(job.fieldSources),
    firstSeenAt: new Date(first.seen_at),
    lastSeenAt: seenAt,
    lastVerifiedAt: verifiedAt,
    pReal: pRealFor(job.providers.size),
    // a job made and re-listed within one batch
    repostCount: reposts,
    blockingKey: primary,
  };
}

/**
 * The jobs whose known listings changed at their provider (a refresh meets the employer's
 * edits): each as stored, and as those listings leave it (each changed field follows its listing
 * where the listing is the field's source or a better one; `listingChanges`). One read, rare.
 */
async function listingStates(tx: Prisma.TransactionClient, seen: readonly KnownSighting[]): Promise<Map<string, { before: RankedState; after: RankedState }>> {
  const changed = seen.filter((k) => k.changed.length > 0);
  const states = new Map<string, { before: RankedState; after: RankedState }>();
  if (changed.length === 0) return states;
  const rows = await tx.canonicalJob.findMany({ where: { id: { in: [...new Set(changed.map((k) => k.jobId))] } }, include: { company: true } });
  for (const row of rows) {
    const before = rankedStateOfRow(row);
    states.set(row.id, { before, after: before });
  }
  for (const k of changed) {
    const state = states.get(k.jobId);
    if (!state) continue;
    const fields = k.changed.flatMap((f): RankedField[] => (f === 'location' ? ['location', 'location.remote'] : [f]));
    const { changes, sources } = listingChanges(state.after, k.record, fieldsOfRecord(k.record), fields);
    state.after = { fields: { ...state.after.fields, ...changes }, sources: { ...state.after.sources, ...sources } };
  }
  return states;
}

/** A stored source of a listing: its job and the hashes of the fields it was last seen with. */
interface KnownSource {
  id: string;
  provider: string;
  provider_job_id: string;
  canonical_job_id: string;
  field_hashes: Record<string, unknown>;
}

/** The stored sources of these listings, in one indexed statement (Prisma's OR of pairs costs more to build than to run). */
function knownSources(db: SqlReader, records: readonly NormalizedProviderRecord[]): Promise<KnownSource[]> {
  if (records.length === 0) return Promise.resolve([]);
  return db.$queryRaw<KnownSource[]>`
    SELECT s.id, s.provider::text AS provider, s.provider_job_id, s.canonical_job_id, s.field_hashes
    FROM job_sources s JOIN unnest(${records.map((r) => r.provider)}::text[], ${records.map((r) => r.provider_job_id)}::text[]) AS v(provider, id)
      ON s.provider = v.provider::provider AND s.provider_job_id = v.id`;
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
      SET last_seen_at = GREATEST(j.last_seen_at, v.seen_at), last_verified_at = GREATEST(j.last_verified_at, v.verified_at)
      FROM unnest(
        ${jobs.map(([id]) => id)}::text[],
        ${jobs.map(([, t]) => t.seenAt.toISOString())}::text[]::timestamptz[],
        ${jobs.map(([, t]) => t.verifiedAt?.toISOString() ?? null)}::text[]::timestamptz[]
      ) AS v(id, seen_at, verified_at)
      WHERE j.id = v.id AND (j.last_seen_at < v.seen_at OR v.verified_at > COALESCE(j.last_verified_at, '-infinity'))`;
}

/**
 * Each sighted source's latest sighting, in source id order. Statements that update many rows
 * lock them in the order they meet them (here the array's), so two waves sighting the same
 * listings in different orders deadlocked (PostgreSQL broke it after `deadlock_timeout`, 1 s, and
 * the message came again): every sightings statement now takes its rows in id order.
 */
function latestSightingPerSource(seen: readonly KnownSighting[]): KnownSighting[] {
  const bySource = new Map<string, KnownSighting>();
  for (const k of seen) {
    const was = bySource.get(k.sourceId);
    if (!was || k.seenAt >= was.seenAt) bySource.set(k.sourceId, k);
  }
  return [...bySource.values()].sort((a, b) => ascending(a.sourceId, b.sourceId));
}

/** Each sighted job's latest sighting, and when the own crawler last confirmed it (the latest times, whatever the batch's order). */
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
function asSighted(rows: CanonicalJobRow[], seen: readonly KnownSighting[]): CanonicalJobRow[] {
  if (seen.length === 0) return rows;
  const byJob = sightingsByJob(seen);
  const bySource = new Map<string, Date>();
  for (const k of seen) {
    const key = `${k.record.provider}\u0000${k.record.provider_job_id}`;
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
        const seenAt = bySource.get(`${source.provider}\u0000${source.providerJobId}`);
        return seenAt ? { ...source, lastSeenAt: later(seenAt, source.lastSeenAt) } : source;
      }),
    };
  });
}

/** A stored job's ranked values and their sources. */
function rankedStateOfRow(row: JobWithCompany): RankedState {
  return { fields: fieldsOfRow(row), sources: decodeFieldSources(row.fieldSources) };
}

/** A stored job in the matcher's terms. */
function fieldsOfRow(row: JobWithCompany): MatchFields {
  return {
    title: row.title,
    companyName: row.company.name,
    companyDomain: row.company.domain,
    city: row.city,
    region: row.region,
    countryCode: row.countryCode,
    remote: row.remote,
    employmentType: row.employmentType,
    seniority: row.seniority,
    jobFamily: row.jobFamily,
    salary:
      row.salaryCurrency && row.salaryPeriod
        ? { min: row.salaryMin, max: row.salaryMax, currency: row.salaryCurrency, period: row.salaryPeriod as 'year' | 'month' | 'hour', origin: (row.salaryOrigin ?? 'declared') as 'declared' | 'inferred' }
        : null,
    description: row.description,
    applyUrl: row.applyUrl,
    postedAt: row.postedAt?.toISOString() ?? null,
  };
}

/** The single exact key jobs were stored under before multi-key blocking (still read, never written). */
function legacyBlocks(record: NormalizedProviderRecord): string[] {
  const name = `name:${normalizeCompanyName(record.company.name)}`;
  const blocks = [blockingKey(name, record.title, record.location.country_code)];
  if (record.company.domain) blocks.push(blockingKey(record.company.domain.toLowerCase().replace(/^www\./, ''), record.title, record.location.country_code));
  return blocks;
}

function sourceData(canonicalJobId: string, record: NormalizedProviderRecord): Prisma.JobSourceCreateManyInput {
  const seenAt = new Date(record.seen_at);
  return {
    id: newId('src'),
    canonicalJobId,
    provider: record.provider,
    providerJobId: record.provider_job_id,
    url: record.url,
    firstSeenAt: seenAt,
    lastSeenAt: seenAt,
    fields: RECORD_FIELDS.filter((f) => record[f] !== null),
    fieldHashes: recordFieldHashes(record),
  };
}
