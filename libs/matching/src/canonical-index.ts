import type { NormalizedProviderRecord } from '@jobs/contracts';
import { blockingKeys, featuresOf, fieldsOfRecord, type MatchFields } from './features.js';
import { rankedMerge, sourceOf, sourcesOfRecord, type FieldSources } from './field-rank.js';
import { decide, type CandidateJob, type RecordToMatch } from './score.js';

export interface IndexMergeResult {
  jobId: string;
  /** The record joined an existing canonical job (false when it created one or was known). */
  merged: boolean;
  /** The (provider, provider_job_id) was already in the index: its job, unchanged. */
  known: boolean;
  /** The record re-lists its job (`relists` of score.ts): the job's posting time moves to it. */
  reposted: boolean;
  /** The job's re-listings counting this record: the generation its listing belongs to. */
  generation: number;
}

/** A provider's listing, by its id. */
export type ListingRef = Pick<NormalizedProviderRecord, 'provider' | 'provider_job_id'>;

/** A canonical job as stored elsewhere (the database), loaded into an index as a candidate. */
export interface StoredJob {
  id: string;
  fields: MatchFields;
  /** The source that decided each field (`field-rank.ts`); a field missing here counts as unrecorded. */
  fieldSources?: FieldSources;
  keys: Iterable<string>;
  /**
   * `listed: false`: the provider stopped listing it (it no longer counts as listing the job);
   * `generation`: the job's re-listings when the listing was first seen.
   */
  sources: Iterable<{ provider: string; providerJobId: string; listed?: boolean; generation?: number }>;
  /** `repost_count`: the job's re-listings so far. */
  repostCount?: number;
  closed?: boolean;
}

/** A job's state in the index: its merged fields, their sources and the union of its keys. */
export interface IndexedJobView {
  readonly id: string;
  readonly fields: MatchFields;
  readonly fieldSources: FieldSources;
  readonly keys: ReadonlySet<string>;
  readonly providers: ReadonlySet<string>;
}

interface IndexedJob extends CandidateJob {
  fields: MatchFields;
  fieldSources: FieldSources;
  keys: Set<string>;
  providers: Set<string>;
  readNow: Set<string>;
  generation: number;
  listedGeneration: Map<string, number>;
  unlistedGeneration: Map<string, number>;
  closed: boolean;
}

/** A record ready to match: its fields, features and blocking keys. */
export function recordToMatch(record: NormalizedProviderRecord): RecordToMatch & { fields: MatchFields } {
  const fields = fieldsOfRecord(record);
  const features = featuresOf(fields);
  return { provider: record.provider, fields, features, keys: blockingKeys(features) };
}

/**
 * Canonical jobs in memory, matched exactly as the dedupe service matches them in PostgreSQL:
 * a known (provider, provider_job_id) keeps its job; otherwise the record is scored against
 * the jobs sharing one of its blocking keys and joins the best one or starts a new job, whose
 * fields then take the record's values where it is their best source (`rankedMerge`). Used
 * by the benchmark and by batch merging.
 */
export class CanonicalIndex {
  private readonly jobs = new Map<string, IndexedJob>();
  private readonly byKey = new Map<string, string[]>();
  private readonly bySource = new Map<string, string>();
  /** Jobs with listings marked live in the current read. */
  private readonly inRead = new Set<IndexedJob>();
  private sequence = 0;

  constructor(private readonly newId: () => string = () => `job_${(this.sequence++).toString(36)}`) {}

  get size(): number {
    return this.jobs.size;
  }

  /** Adds a stored canonical job (and its sources) so records can match it. */
  load(stored: StoredJob): void {
    if (this.jobs.has(stored.id)) return;
    const job: IndexedJob = {
      id: stored.id,
      fields: stored.fields,
      fieldSources: stored.fieldSources ?? {},
      features: featuresOf(stored.fields),
      keys: new Set(),
      providers: new Set(),
      readNow: new Set(),
      generation: stored.repostCount ?? 0,
      listedGeneration: new Map(),
      unlistedGeneration: new Map(),
      closed: stored.closed ?? false,
    };
    this.jobs.set(stored.id, job);
    this.addKeys(job, [...stored.keys]);
    for (const s of stored.sources) {
      // a provider that stopped listing the job may list it again under a new id: a re-listing
      const generations = s.listed !== false ? job.listedGeneration : job.unlistedGeneration;
      if (s.listed !== false) job.providers.add(s.provider);
      generations.set(s.provider, Math.max(generations.get(s.provider) ?? 0, s.generation ?? 0));
      this.bySource.set(`${s.provider}\u0000${s.providerJobId}`, stored.id);
    }
  }

  /**
   * Starts a read: one answer of the providers (a search's page, a sweep's part). Its records of
   * known listings show them live now, so a new id of the same provider beside one of them is a
   * second listing, not a re-listing; so do the listings `alsoShown` names (the read's other parts).
   */
  read(records: readonly NormalizedProviderRecord[], alsoShown: readonly ListingRef[] = []): void {
    for (const job of this.inRead) job.readNow.clear();
    this.inRead.clear();
    for (const r of [...records, ...alsoShown]) {
      const jobId = this.bySource.get(`${r.provider}\u0000${r.provider_job_id}`);
      if (jobId) this.markRead(this.jobs.get(jobId)!, r.provider);
    }
  }

  job(id: string): IndexedJobView | undefined {
    return this.jobs.get(id);
  }

  merge(record: NormalizedProviderRecord): IndexMergeResult {
    const sourceKey = `${record.provider}\u0000${record.provider_job_id}`;
    const known = this.bySource.get(sourceKey);
    if (known) {
      const job = this.jobs.get(known)!;
      this.markRead(job, record.provider);
      return { jobId: known, merged: false, known: true, reposted: false, generation: job.generation };
    }
    const input = recordToMatch(record);
    const decision = decide(input, this.candidates(input.keys));
    let jobId = decision.jobId;
    if (jobId) {
      const job = this.jobs.get(jobId)!;
      const { changes, sources } = rankedMerge({ fields: job.fields, sources: job.fieldSources }, record, input.fields);
      // a re-listing moves the posting time to the new listing's, whatever its rank, and the apply
      // URL when it states one: the earlier listing's may lead to a posting taken down
      if (decision.relisted) {
        changes.postedAt = input.fields.postedAt;
        sources.posted_at = sourceOf(record, 'posted_at');
        if (input.fields.applyUrl !== null && input.fields.applyUrl !== job.fields.applyUrl) {
          changes.applyUrl = input.fields.applyUrl;
          sources.apply_url = sourceOf(record, 'apply_url');
        }
      }
      if (Object.keys(changes).length > 0) {
        job.fields = { ...job.fields, ...changes };
        job.fieldSources = { ...job.fieldSources, ...sources };
        job.features = featuresOf(job.fields, changes.description === undefined ? job.features.description : undefined);
      }
      if (decision.relisted) {
        job.generation += 1;
        job.closed = false;
      }
      job.providers.add(record.provider);
      job.listedGeneration.set(record.provider, job.generation);
      this.markRead(job, record.provider);
      this.addKeys(job, input.keys);
    } else {
      jobId = this.newId();
      const job: IndexedJob = {
        id: jobId,
        fields: input.fields,
        fieldSources: sourcesOfRecord(record, input.fields),
        features: input.features,
        keys: new Set(),
        providers: new Set([record.provider]),
        readNow: new Set(),
        generation: 0,
        listedGeneration: new Map([[record.provider, 0]]),
        unlistedGeneration: new Map(),
        closed: false,
      };
      this.jobs.set(jobId, job);
      this.markRead(job, record.provider);
      this.addKeys(job, input.keys);
    }
    this.bySource.set(sourceKey, jobId);
    const { generation } = this.jobs.get(jobId)!;
    return { jobId, merged: decision.jobId !== null, known: false, reposted: decision.relisted, generation };
  }

  /**
   * A listing the index knows, live again and re-listing its job (the caller decides when: the
   * own crawler, which reads the employer's board, showing a closed job's listing again). As for a
   * new listing that re-lists: one more re-listing, open, and the posting time and apply URL the
   * listing's where it states them. The listing belongs to the new re-listing and is live in this
   * read, so a new id of its provider beside it is a second listing, not a replacement.
   */
  relistKnown(record: NormalizedProviderRecord): IndexMergeResult {
    const jobId = this.bySource.get(`${record.provider}\u0000${record.provider_job_id}`);
    if (!jobId) throw new Error(`relistKnown: ${record.provider} ${record.provider_job_id} is not in the index`);
    const job = this.jobs.get(jobId)!;
    const fields = fieldsOfRecord(record);
    const changes: Partial<MatchFields> = {};
    const sources: FieldSources = {};
    const postedAt = (at: string | null) => (at === null ? null : Date.parse(at));
    if (fields.postedAt !== null && postedAt(fields.postedAt) !== postedAt(job.fields.postedAt)) {
      changes.postedAt = fields.postedAt;
      sources.posted_at = sourceOf(record, 'posted_at');
    }
    if (fields.applyUrl !== null && fields.applyUrl !== job.fields.applyUrl) {
      changes.applyUrl = fields.applyUrl;
      sources.apply_url = sourceOf(record, 'apply_url');
    }
    if (Object.keys(changes).length > 0) {
      job.fields = { ...job.fields, ...changes };
      job.fieldSources = { ...job.fieldSources, ...sources };
      job.features = featuresOf(job.fields, job.features.description);
    }
    job.generation += 1;
    job.closed = false;
    job.providers.add(record.provider);
    job.listedGeneration.set(record.provider, job.generation);
    this.markRead(job, record.provider);
    return { jobId, merged: false, known: true, reposted: true, generation: job.generation };
  }

  private markRead(job: IndexedJob, provider: string): void {
    job.readNow.add(provider);
    this.inRead.add(job);
  }

  /** The canonical job of a (provider, provider_job_id), if merged. */
  jobOf(provider: string, providerJobId: string): string | undefined {
    return this.bySource.get(`${provider}\u0000${providerJobId}`);
  }

  private candidates(keys: readonly string[]): CandidateJob[] {
    const out: IndexedJob[] = [];
    for (const key of keys) {
      const ids = this.byKey.get(key);
      if (!ids) continue;
      for (const id of ids) {
        const job = this.jobs.get(id)!;
        if (!out.includes(job)) out.push(job);
      }
    }
    return out;
  }

  private addKeys(job: IndexedJob, keys: readonly string[]): void {
    for (const key of keys) {
      if (job.keys.has(key)) continue;
      job.keys.add(key);
      const list = this.byKey.get(key);
      if (list) list.push(job.id);
      else this.byKey.set(key, [job.id]);
    }
  }
}
