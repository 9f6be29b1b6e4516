// What a merge reads under its locks: the stored jobs its new records may join, and the jobs its
// known listings changed.
import type { NormalizedProviderRecord, RankedField } from '@jobs/contracts';
import { Prisma } from '@jobs/db';
import { blockingKey, fieldsOfRecord, listingChanges, normalizeCompanyName } from '@jobs/matching';
import type { RankedState } from './job-field-writes.js';
import { rankedStateOfRow, type StoredRow } from './job-row-mapping.js';
import type { KnownSighting } from './sightings.js';

/** A job as stored, and as the changed listings the batch met leave it. */
export interface ListedState {
  before: RankedState;
  after: RankedState;
}

/**
 * Jobs sharing a blocking key, oldest first (ties in score go to the oldest), and the jobs `ids`
 * (known listings' jobs the merge may re-list). Jobs made before blocking keys were stored are
 * found by their legacy `blocking_key` column.
 */
export async function candidates(
  tx: Prisma.TransactionClient,
  keys: string[],
  records: readonly NormalizedProviderRecord[],
  ids: readonly string[] = [],
): Promise<StoredRow[]> {
  const legacy = [...new Set(records.flatMap((r) => legacyBlocks(r)))];
  const found = await tx.$queryRaw<Array<{ id: string }>>(candidateIds(keys, legacy, ids));
  if (found.length === 0) return [];
  const jobs = await tx.canonicalJob.findMany({
    // closed jobs too: a new listing of a closed opening re-lists it (same id, repost_count up)
    where: { id: { in: found.map((row) => row.id) } },
    include: { company: true },
    orderBy: [{ firstSeenAt: 'asc' }, { id: 'asc' }],
  });
  // one query after the other: nested includes would run side by side on the transaction's connection
  const jobIds = jobs.map((j) => j.id);
  const sources = await tx.jobSource.findMany({
    where: { canonicalJobId: { in: jobIds } },
    select: { canonicalJobId: true, provider: true, providerJobId: true, listed: true, generation: true },
  });
  const jobKeys = await tx.canonicalJobKey.findMany({
    where: { canonicalJobId: { in: jobIds } },
    select: { canonicalJobId: true, key: true },
  });
  return jobs.map((job) => ({
    ...job,
    sources: sources.filter((s) => s.canonicalJobId === job.id),
    keys: jobKeys.filter((k) => k.canonicalJobId === job.id),
  }));
}

/**
 * The ids of the jobs under `keys`, under the legacy blocking keys `legacy`, and `ids`: each by its
 * own index. As one filter of `canonical_jobs` (a key's job `IN` a sub-select, OR a legacy key),
 * PostgreSQL can use no index for the OR and reads the whole store for every merge with a new
 * listing.
 */
export function candidateIds(keys: readonly string[], legacy: readonly string[], ids: readonly string[]): Prisma.Sql {
  return Prisma.sql`
    SELECT k.canonical_job_id AS id FROM canonical_job_keys k WHERE k.key = ANY(${[...keys]}::text[])
    UNION SELECT j.id FROM canonical_jobs j WHERE j.blocking_key = ANY(${legacy}::text[])
    UNION SELECT unnest(${[...ids]}::text[])`;
}

/** The single exact key jobs were stored under before multi-key blocking (still read, never written). */
function legacyBlocks(record: NormalizedProviderRecord): string[] {
  const name = `name:${normalizeCompanyName(record.company.name)}`;
  const blocks = [blockingKey(name, record.title, record.location.country_code)];
  if (record.company.domain)
    blocks.push(
      blockingKey(
        record.company.domain.toLowerCase().replace(/^www\./, ''),
        record.title,
        record.location.country_code,
      ),
    );
  return blocks;
}

/**
 * The jobs whose known listings changed at their provider (a refresh meets the employer's
 * edits): each as stored, and as those listings leave it (each changed field follows its listing
 * where the listing is the field's source or a better one; `listingChanges`). One read, rare.
 */
export async function listingStates(
  tx: Prisma.TransactionClient,
  seen: readonly KnownSighting[],
): Promise<Map<string, ListedState>> {
  const changed = seen.filter((k) => k.changed.length > 0);
  const states = new Map<string, ListedState>();
  if (changed.length === 0) return states;
  const rows = await tx.canonicalJob.findMany({
    where: { id: { in: [...new Set(changed.map((k) => k.jobId))] } },
    include: { company: true },
  });
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
