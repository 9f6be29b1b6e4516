import type {
  ChunkPosition,
  Filters,
  Job,
  JobSearchResponseDraft,
  ProviderFailure,
  ProviderSlug,
  SearchRecordsDeduplicated,
  WaterfallStrategy,
} from '@jobs/contracts';
import { matchesFilters } from '@jobs/job-filters';
import { sourceCount } from './source-count.js';

/** What one provider's fetch, after de-duplication, brought to a search. */
export interface ProviderBatch {
  provider: ProviderSlug;
  outcome: 'ok' | 'provider_error' | 'provider_timeout';
  /** Provider records in the batch (several may resolve to one canonical job). */
  recordsIn: number;
  /**
   * Records of the batch that dedupe merged into a canonical job which existed before them: in
   * the store (a sighting of a listing it knows included) or made by an earlier record of the
   * search. At most `recordsIn`.
   */
  duplicatesMerged: number;
  /**
   * Canonical jobs the batch resolved to, as dedupe saw them after merging the batch; for the
   * own index followed by the `fromStore` jobs its store answered.
   */
  jobs: Job[];
  /** Own index: trailing jobs of `jobs` that came from the store, not from this batch's records. */
  fromStore?: number;
  /** Where the provider's next read starts (null: it has no more). */
  next?: ChunkPosition | null;
  /** Partners: how many postings the provider said match the whole query, when it said. */
  total?: number;
  /** Own index, for a dry run: the store's count of matching jobs (`search-estimate.ts`). */
  storeCount?: SearchRecordsDeduplicated.StoreCount;
}

export interface AssembleInput {
  requestId: string;
  /** The providers actually asked (started waves), in priority order. */
  providers: readonly ProviderSlug[];
  filters: Filters;
  strategy: WaterfallStrategy;
  minSources: number;
  batches: readonly ProviderBatch[];
  limit: number;
  startedAt: number;
  now: number;
}

/**
 * Merges the providers' batches into one page: canonical jobs in plan order, each once, the
 * first provider that brought a job credited with it. Batches are de-duplicated concurrently, so
 * the same job can arrive in several snapshots; the one listing the most sources is kept.
 * `duplicates_merged` counts the provider records merged into existing canonical jobs: every
 * record of an answered batch that resolved to a job which existed before it, in the store or
 * made by an earlier record of this search (dedupe decides it record by record, under the
 * matching locks, so batches merged at once still make each new job once and count the others).
 * A sighting of a listing the store knows counts; the record that made a job does not, nor does
 * a store answer of the own index (no record). Never more than the records that came in.
 * Billing later fills in the credit fields.
 */
export function assembleSearchPage(input: AssembleInput): JobSearchResponseDraft {
  const { matching, metadata } = assembleSearchResult(input);
  return { data: matching.slice(0, input.limit), next_cursor: null, metadata };
}

/** Every matching job of the search, in page order, and the search's metadata (for paging). */
export interface SearchResult {
  matching: Job[];
  metadata: JobSearchResponseDraft['metadata'];
  /**
   * Per matching job, the provider credited with it: the first in plan order whose answer held it
   * (the gateway counts a page's `contributions` from it).
   */
  creditedTo: Record<string, ProviderSlug>;
}

export function assembleSearchResult(input: AssembleInput): SearchResult {
  const byProvider = new Map(input.batches.map((b) => [b.provider, b]));
  const seen = new Map<string, Job>();
  const firstBy = new Map<string, ProviderSlug>();
  const failed: ProviderFailure[] = [];
  let recordsIn = 0;
  let duplicatesMerged = 0;

  for (const provider of input.providers) {
    const batch = byProvider.get(provider);
    if (!batch) {
      failed.push({ provider, code: 'provider_timeout' });
      continue;
    }
    if (batch.outcome !== 'ok') {
      failed.push({ provider, code: batch.outcome });
      continue;
    }
    recordsIn += batch.recordsIn;
    duplicatesMerged += Math.min(batch.duplicatesMerged, batch.recordsIn);
    for (const job of batch.jobs) {
      const earlier = seen.get(job.id);
      if (!earlier) firstBy.set(job.id, provider);
      if (!earlier || moreComplete(job, earlier)) seen.set(job.id, job);
    }
  }

  const minSources = input.strategy === 'consensus' ? input.minSources : 1;
  const matching = [...seen.values()].filter(
    (job) => matchesFilters(job, input.filters, input.now) && sourceCount(job) >= minSources,
  );
  const creditedTo: Record<string, ProviderSlug> = {};
  for (const job of matching) creditedTo[job.id] = firstBy.get(job.id)!;
  const matchingIds = new Set(matching.map((job) => job.id));
  const hit = input.providers.filter((provider) => {
    const batch = byProvider.get(provider);
    return batch?.outcome === 'ok' && batch.jobs.some((job) => matchingIds.has(job.id));
  });
  return {
    matching,
    creditedTo,
    metadata: {
      request_id: input.requestId,
      status: failed.length > 0 ? 'partial' : 'complete',
      duplicates_merged: Math.min(duplicatesMerged, recordsIn),
      providers: { tried: [...input.providers], hit, failed },
      latency_ms: Math.max(0, Math.round(input.now - input.startedAt)),
    },
  };
}

function moreComplete(candidate: Job, current: Job): boolean {
  if (candidate.sources.length !== current.sources.length) return candidate.sources.length > current.sources.length;
  return candidate.last_seen_at > current.last_seen_at;
}
