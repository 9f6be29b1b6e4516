// Canonical jobs' rows as the merge reads and writes them: Prisma rows to matcher terms and back.
import type { NormalizedProviderRecord } from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import { titleSearchText } from '@jobs/job-filters';
import {
  decodeFieldSources,
  encodeFieldSources,
  normalizeTitle,
  recordToMatch,
  type IndexedJobView,
  type MatchFields,
} from '@jobs/matching';
import { newId } from '@jobs/observability';
import { recordFieldHashes, UPDATE_FIELDS } from '../lifecycle/job-lifecycle.js';
import type { CompanyIds } from './companies.js';
import type { RankedState } from './job-field-writes.js';
import { pRealFor, storedSalary } from './job-view.js';

const RECORD_FIELDS = [...UPDATE_FIELDS, 'posted_at'] as const;

export type JobWithCompany = Prisma.CanonicalJobGetPayload<{ include: { company: true } }>;

/** A stored job as the matcher loads it: with its sources and blocking keys. */
export type StoredRow = JobWithCompany & {
  sources: {
    provider: NormalizedProviderRecord['provider'];
    providerJobId: string;
    listed: boolean;
    generation: number;
  }[];
  keys: { key: string }[];
};

/** What a new canonical job's row is made of. */
export interface NewJob {
  jobId: string;
  job: IndexedJobView;
  companyIds: CompanyIds;
  /** the batch's first record of the job: its first sighting and primary blocking key */
  first: NormalizedProviderRecord;
  /** the latest sighting of the job in the batch */
  seenAt: Date;
  /** when the own crawler saw it in the batch, if it did */
  verifiedAt: Date | null;
  /** a job made and re-listed within one batch */
  reposts: number;
}

/** A new canonical job's row. */
export function jobCreate({
  jobId,
  job,
  companyIds,
  first,
  seenAt,
  verifiedAt,
  reposts,
}: NewJob): Prisma.CanonicalJobCreateManyInput {
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
    repostCount: reposts,
    blockingKey: primary,
  };
}

/** A new source row: the listing `record` of the job `canonicalJobId`. */
/** `generation`: the job's re-listing the listing belongs to (`IndexMergeResult.generation`). */
export function sourceCreate(
  canonicalJobId: string,
  record: NormalizedProviderRecord,
  generation: number,
): Prisma.JobSourceCreateManyInput {
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
    generation,
  };
}

/** A stored job's ranked values and their sources. */
export function rankedStateOfRow(row: JobWithCompany): RankedState {
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
    salary: storedSalary(row),
    description: row.description,
    applyUrl: row.applyUrl,
    postedAt: row.postedAt?.toISOString() ?? null,
  };
}
