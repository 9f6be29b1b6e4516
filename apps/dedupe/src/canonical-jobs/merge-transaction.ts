// One merge transaction: a batch of records matched against the stored jobs under advisory locks
// on their blocking keys, and every change it makes written set-based.
import { providerBits, type NormalizedProviderRecord } from '@jobs/contracts';
import { ascending, type Prisma } from '@jobs/db';
import { CanonicalIndex, bestCompanyNames, recordToMatch, type FieldSources } from '@jobs/matching';
import { newId } from '@jobs/observability';
import { listingChangedFields } from '../lifecycle/job-lifecycle.js';
import type { JobTrack, LifecycleRecorder } from '../lifecycle/lifecycle-recorder.js';
import { oweMovedJobReads } from '../refresh/owed-reads.js';
import { applyAbsences, type RefreshListing } from './absences.js';
import { resolveCompanies } from './companies.js';
import {
  fieldDiff,
  fieldUpdateData,
  fieldWritesStatement,
  isEmptyDiff,
  type FieldWrite,
  type RankedState,
} from './job-field-writes.js';
import { jobCreate, rankedStateOfRow, sourceCreate, type StoredRow } from './job-row-mapping.js';
import { pRealFor } from './job-view.js';
import { candidates, listingStates } from './merge-candidates.js';
import {
  knownSources,
  listingKey,
  recordSightings,
  relistsClosedJob,
  seenSinceUnlisted,
  sightingOf,
  writeJobSightings,
  type JobSighting,
  type KnownSighting,
} from './sightings.js';

export interface MergeResult {
  jobId: string;
  /** The record joined a canonical job that another provider's record had created. */
  merged: boolean;
  /** The record re-listed its job (same id, `repost_count` up). */
  reposted: boolean;
}

/** A merge result, and whether the job existed before the record (`ListingsMerged.merged`). */
export interface MergeOutcome extends MergeResult {
  /**
   * The record resolved to a canonical job that existed before it: stored (its listing known, or
   * matched) or made by an earlier record of the batch. False only for the record that made its job.
   */
  existing: boolean;
}

export interface MergeInput {
  tx: Prisma.TransactionClient;
  lifecycle: LifecycleRecorder;
  records: readonly NormalizedProviderRecord[];
  /** a refresh part's listing: its absences are judged in the same transaction */
  refresh: RefreshListing | undefined;
  /** the whole read `records` came in, known unchanged listings too (default: `records`) */
  read?: readonly NormalizedProviderRecord[] | undefined;
}

/** What the batch's new listings did to one job: its latest sighting, its new sources, its re-listings. */
interface Touched {
  seenAt: Date;
  sources: { record: NormalizedProviderRecord; generation: number }[];
  reposts: number;
}

/** A stored job the batch loaded, and the state its update compares against. */
interface Loaded {
  row: StoredRow;
  before: RankedState;
}

/**
 * Merges records in order (later ones may join jobs earlier ones created), one outcome per
 * record; a refresh listing's absences, and the lifecycle changes the merge made, in the same
 * transaction.
 */
export async function mergeInTransaction({
  tx,
  lifecycle,
  records,
  refresh,
  read,
}: MergeInput): Promise<MergeOutcome[]> {
  const inputs = records.map((r) => recordToMatch(r));
  // Beside the blocking keys:
  // - the listings themselves: two batches may show one listing with no blocking key in common
  //   (its title or company changed between their reads, no apply URL); each would find it
  //   unknown and store it, and the second would fail on its source;
  // - the records' companies: a transaction may make a company or rename one (and then lock its
  //   open jobs) after it has locked jobs of its own, so two that meet one company would
  //   otherwise wait for each other in a cycle (one making it while holding a job the other's
  //   rename needs).
  // Locked here, first, such batches take their turns. (A listing's lock name is not `listingKey`:
  // PostgreSQL text cannot hold its NUL separator.)
  const listings = records.map((r) => `s:${r.provider}|${r.provider_job_id}`);
  const companies = inputs.map(({ fields: f }) => (f.companyDomain ? `c:${f.companyDomain}` : `cn:${f.companyName}`));
  const keys = [...new Set([...inputs.flatMap((i) => i.keys), ...listings, ...companies])];
  // one statement, locks taken in ascending lock-id order: every transaction agrees on the order
  await tx.$executeRaw`SELECT count(pg_advisory_xact_lock(k)) FROM (SELECT DISTINCT hashtextextended(x, 0) AS k FROM
    unnest(${keys}::text[]) AS x ORDER BY 1) AS locks`;
  // read again under the locks: another replica may have stored some since findSightings
  const known = await knownSources(tx, records);
  const knownBySource = new Map(known.map((s) => [listingKey(s.provider, s.provider_job_id), s]));
  const freshKeys = new Set<string>();
  const fresh: NormalizedProviderRecord[] = [];
  records.forEach((r, i) => {
    if (knownBySource.has(listingKey(r.provider, r.provider_job_id))) return;
    fresh.push(r);
    for (const key of inputs[i]!.keys) freshKeys.add(key);
  });
  const knownSeen: KnownSighting[] = [];
  for (const record of records) {
    const source = knownBySource.get(listingKey(record.provider, record.provider_job_id));
    if (source) knownSeen.push(sightingOf(source, record, listingChangedFields(source.field_hashes, record)));
  }
  // known listings that re-list their job when it is closed (`relistsClosedJob`): the jobs of those
  // no longer listed (closed ones among them) are loaded with the candidates; a job closed while
  // its listing was listed is loaded once it is found closed under its lock
  const relisting = knownSeen.filter(
    (k) =>
      relistsClosedJob(k.record.provider) &&
      seenSinceUnlisted(knownBySource.get(listingKey(k.record.provider, k.record.provider_job_id))!, k.record),
  );
  const relistable = [
    ...new Set(known.filter((s) => !s.listed && relistsClosedJob(s.provider)).map((s) => s.canonical_job_id)),
  ];
  // jobs whose known listings changed at their provider, as they were and as those listings leave them
  const listed = await listingStates(tx, knownSeen);
  const stored =
    fresh.length > 0 || relistable.length > 0 ? await candidates(tx, [...freshKeys], fresh, relistable) : [];
  // the state each stored job was loaded with: what its update compares against
  const loaded = new Map<string, Loaded>();
  const index = new CanonicalIndex(() => newId('job'));
  const goneFromBoard = boardListingsGone(refresh);
  const load = (row: StoredRow) => {
    if (loaded.has(row.id)) return;
    const before = rankedStateOfRow(row);
    loaded.set(row.id, { row, before });
    const state = listed.get(row.id)?.after ?? before;
    index.load({
      id: row.id,
      fields: state.fields,
      fieldSources: state.sources,
      keys: row.keys.map((k) => k.key),
      sources: goneFromBoard ? row.sources.map((s) => (goneFromBoard(s) ? { ...s, listed: false } : s)) : row.sources,
      repostCount: row.repostCount,
      closed: row.status === 'closed',
    });
  };
  for (const row of stored) load(row);
  // each closed job such a listing re-lists, and the generation of that re-listing: made before
  // the new records meet the job, so they find it open and listed by that provider in this read
  // (a new id beside it is no second re-listing)
  const relisted = new Map<string, number>();
  for (const k of relisting) {
    if (relisted.has(k.jobId) || loaded.get(k.jobId)?.row.status !== 'closed') continue;
    relisted.set(k.jobId, index.relistKnown(k.record).generation);
  }
  // one read: its known listings are live beside any new id of the same provider (a board's, in
  // any part of its read)
  const boardListed = [...(refresh?.boardListed ?? [])].map((id) => ({
    provider: refresh!.provider,
    provider_job_id: id,
  }));
  index.read(read ?? records, boardListed);

  const results: MergeOutcome[] = [];
  const touched = new Map<string, Touched>();
  for (const record of records) {
    const seenAt = new Date(record.seen_at);
    const source = knownBySource.get(listingKey(record.provider, record.provider_job_id));
    if (source) {
      results.push({ jobId: source.canonical_job_id, merged: false, existing: true, reposted: false });
      continue;
    }
    const result = index.merge(record);
    const { reposted } = result;
    results.push({ jobId: result.jobId, merged: result.merged, existing: result.merged || result.known, reposted });
    // the same listing twice in one batch: the first one is the source
    if (result.known) continue;
    const entry = touched.get(result.jobId) ?? { seenAt, sources: [], reposts: 0 };
    if (seenAt > entry.seenAt) entry.seenAt = seenAt;
    if (reposted) entry.reposts += 1;
    entry.sources.push({ record, generation: result.generation });
    touched.set(result.jobId, entry);
  }

  // every job this transaction may change, locked, as it was before
  const track: JobTrack = await lifecycle.begin(tx, [
    ...new Set([...knownSeen.map((k) => k.jobId), ...touched.keys()]),
  ]);
  // the re-listings those known listings make, decided on the jobs as locked: a closed job is
  // re-listed once (written as a new id's re-listing is), its listings join that re-listing; an
  // open one (also one another transaction re-listed since it was loaded) is a sighting only; a
  // redelivery finds its job open
  const closed = (jobId: string) => track.before.get(jobId)?.status === 'closed';
  const late = [...new Set(relisting.filter((k) => closed(k.jobId) && !loaded.has(k.jobId)).map((k) => k.jobId))];
  if (late.length > 0) for (const row of await candidates(tx, [], [], late)) load(row);
  const generations: { sourceId: string; generation: number }[] = [];
  const relistedBy = new Map<string, NormalizedProviderRecord>();
  for (const k of relisting) {
    if (!closed(k.jobId)) continue;
    const generation = relisted.get(k.jobId) ?? index.relistKnown(k.record).generation;
    relisted.set(k.jobId, generation);
    generations.push({ sourceId: k.sourceId, generation });
    const entry = touched.get(k.jobId) ?? { seenAt: k.seenAt, sources: [], reposts: 0 };
    if (k.seenAt > entry.seenAt) entry.seenAt = k.seenAt;
    if (!relistedBy.has(k.jobId)) {
      entry.reposts += 1;
      relistedBy.set(k.jobId, k.record);
    }
    touched.set(k.jobId, entry);
  }
  records.forEach((r, i) => {
    if (relistedBy.get(results[i]!.jobId) === r) results[i]!.reposted = true;
  });
  for (const jobId of touched.keys()) if (!track.before.has(jobId)) track.created.add(jobId);
  for (const [jobId, entry] of touched) if (entry.reposts > 0 && !track.created.has(jobId)) track.reposted.add(jobId);

  await recordSightings(tx, knownSeen);
  const newKeys: { key: string; canonicalJobId: string }[] = [];
  const creates: Prisma.CanonicalJobCreateManyInput[] = [];
  const sightings: JobSighting[] = [];
  const fieldWrites: FieldWrite[] = [];
  const relists: { write: FieldWrite; storedSources: FieldSources; reposts: number; seenAt: Date }[] = [];
  const newSources: Prisma.JobSourceCreateManyInput[] = [];
  // companies of the jobs made here and of those that learnt their company's domain
  const learnt = (jobId: string) => {
    const domain = index.job(jobId)!.fields.companyDomain;
    return domain !== null && domain !== loaded.get(jobId)?.before.fields.companyDomain;
  };
  const madeOrMoved = [...touched.keys()].flatMap((jobId) =>
    !loaded.has(jobId) || learnt(jobId) ? [index.job(jobId)!.fields] : [],
  );
  const fieldsOf = new Map(records.map((r, i) => [r, inputs[i]!.fields]));
  const offers = bestCompanyNames(
    [...touched.values()].flatMap(({ sources }) =>
      sources.map(({ record: r }) => ({ provider: r.provider, fields: fieldsOf.get(r)! })),
    ),
  );
  const companyIds = await resolveCompanies(tx, madeOrMoved, offers, (openJobIds) =>
    lifecycle.lock(tx, track, openJobIds),
  );
  for (const [jobId, { seenAt, sources: listings, reposts }] of touched) {
    const sources = listings.map((l) => l.record);
    const job = index.job(jobId)!;
    const stored = loaded.get(jobId);
    const before = new Set(stored?.row.keys.map((k) => k.key) ?? []);
    for (const key of job.keys) if (!before.has(key)) newKeys.push({ key, canonicalJobId: jobId });
    // the own crawler seeing the listing confirms it live at its origin
    const crawled = sources.find((r) => r.provider === 'own_index');
    const verifiedAt = crawled ? new Date(crawled.seen_at) : null;
    for (const { record: r, generation } of listings) newSources.push(sourceCreate(jobId, r, generation));
    if (!stored) {
      const row = jobCreate({ jobId, job, companyIds, first: sources[0]!, seenAt, verifiedAt, reposts });
      creates.push({ ...row, seenBy: providerBits(sources.map((r) => r.provider)) });
      continue;
    }
    const { row } = stored;
    const sighting = {
      lastSeenAt: seenAt > row.lastSeenAt ? seenAt : row.lastSeenAt,
      pReal: pRealFor(job.providers.size),
      lastVerifiedAt: verifiedAt && (!row.lastVerifiedAt || verifiedAt > row.lastVerifiedAt) ? verifiedAt : null,
    };
    const after: RankedState = { fields: job.fields, sources: job.fieldSources };
    const diff = fieldDiff(stored.before, after);
    const write: FieldWrite = {
      id: jobId,
      diff,
      fields: after.fields,
      companyId: learnt(jobId) ? companyIds.of(job.fields) : null,
      sighting,
    };
    listed.delete(jobId);
    if (reposts > 0) relists.push({ write, storedSources: stored.before.sources, reposts, seenAt });
    else if (!isEmptyDiff(diff) || write.companyId) fieldWrites.push(write);
    else sightings.push({ id: jobId, ...sighting });
  }
  // known listings' changes of jobs no new record met
  for (const [jobId, { before, after }] of listed) {
    const diff = fieldDiff(before, after);
    if (!isEmptyDiff(diff))
      fieldWrites.push({ id: jobId, diff, fields: after.fields, companyId: null, sighting: null });
  }
  // set-based: one insert for the new jobs, one for the new sources, one update for the jobs
  // that only met another listing (sighting and p_real), one for those whose fields changed;
  // the rare re-listings one by one
  if (creates.length > 0) await tx.canonicalJob.createMany({ data: creates });
  await writeJobSightings(tx, sightings);
  if (fieldWrites.length > 0) await tx.$executeRaw(fieldWritesStatement(fieldWrites));
  // a closed job re-listed keeps the closing it ends, so a past day inside it does not count it open
  if (relists.length > 0)
    await tx.$executeRaw`
      UPDATE canonical_jobs AS j SET reopened_from = j.closed_at, reopened_at = v.at
      FROM unnest(${relists.map((r) => r.write.id)}::text[],
        ${relists.map((r) => r.seenAt)}::timestamptz[]) AS v(id, at)
      WHERE j.id = v.id AND j.status = 'closed' AND j.closed_at IS NOT NULL`;
  for (const { write, storedSources, reposts } of relists) {
    // re-listed: same id, one more repost, open again
    const data = {
      ...fieldUpdateData(write, storedSources),
      repostCount: { increment: reposts },
      status: 'open' as const,
      closedReason: null,
      closedAt: null,
    };
    await tx.canonicalJob.update({ where: { id: write.id }, data });
  }
  if (newSources.length > 0) await tx.jobSource.createMany({ data: newSources });
  // the known listings that re-listed their jobs belong to those re-listings now (in id order, as
  // sightings take these rows)
  if (generations.length > 0) {
    const rows = [...generations].sort((a, b) => ascending(a.sourceId, b.sourceId));
    await tx.$executeRaw`
      UPDATE job_sources AS s SET generation = v.generation
      FROM unnest(${rows.map((r) => r.sourceId)}::text[], ${rows.map((r) => r.generation)}::int[]) AS v(id, generation)
      WHERE s.id = v.id`;
  }
  // stored jobs that new providers saw: their bits, in one statement
  const grown = [...touched]
    .filter(([jobId]) => loaded.has(jobId))
    .map(([jobId, { sources }]) => ({ jobId, bits: providerBits(sources.map((s) => s.record.provider)) }));
  if (grown.length > 0) {
    await tx.$executeRaw`
      UPDATE canonical_jobs AS j SET seen_by = j.seen_by | v.bits
      FROM unnest(${grown.map((g) => g.jobId)}::text[], ${grown.map((g) => g.bits)}::int[]) AS v(id, bits)
      WHERE j.id = v.id AND (j.seen_by | v.bits) <> j.seen_by`;
  }
  // a changed title brings its blocking keys along, so later records still meet the job
  for (const k of knownSeen)
    if (k.changed.includes('title'))
      for (const key of recordToMatch(k.record).keys) newKeys.push({ key, canonicalJobId: k.jobId });
  if (newKeys.length > 0) await tx.canonicalJobKey.createMany({ data: newKeys, skipDuplicates: true });
  if (refresh) await applyAbsences(tx, lifecycle, track, refresh);
  await lifecycle.finish(tx, track);
  // last: it takes no lock after its rows', so merges that owe the same reads never wait in a circle
  await oweMovedJobReads(
    tx,
    [...fieldWrites, ...relists.map((r) => r.write)].filter((w) => w.companyId).map((w) => w.id),
  );
  return results;
}

/**
 * For a board read standing for the board: whether a stored source is one of that board's
 * listings the read does not show (gone from the board, though the final part unlists it).
 */
function boardListingsGone(
  refresh: RefreshListing | undefined,
): ((source: { provider: string; providerJobId: string; listed: boolean }) => boolean) | undefined {
  const { boardPrefix, boardListed } = refresh ?? {};
  if (!refresh || !boardPrefix || !boardListed) return undefined;
  return (s) =>
    s.listed &&
    s.provider === refresh.provider &&
    s.providerJobId.startsWith(boardPrefix) &&
    !boardListed.has(s.providerJobId);
}
