import type { Job, JobSearchResponseDraft, ProviderFailure, ProviderSlug } from '@jobs/contracts';

/** What one provider's fetch, after de-duplication, brought to a search. */
export interface ProviderBatch {
  provider: ProviderSlug;
  outcome: 'ok' | 'provider_error' | 'provider_timeout';
  duplicatesMerged: number;
  jobs: Job[];
}

/** Fields whose coverage the metadata reports (the spec names these and leaves the list open). */
export const COVERAGE_FIELDS = ['salary', 'seniority', 'employment_type', 'job_family', 'location.remote', 'location.country_code', 'description', 'apply_url', 'posted_at'] as const;

export interface AssembleInput {
  requestId: string;
  providers: readonly ProviderSlug[];
  batches: readonly ProviderBatch[];
  limit: number;
  startedAt: number;
  now: number;
}

/**
 * Merges the providers' batches into one page: canonical jobs in plan order, each once, the
 * first provider that brought a job credited with it. Billing later fills in the credit fields.
 */
export function assembleSearchPage(input: AssembleInput): JobSearchResponseDraft {
  const byProvider = new Map(input.batches.map((b) => [b.provider, b]));
  const seen = new Map<string, Job>();
  const contributions: Partial<Record<ProviderSlug, number>> = {};
  const hit: ProviderSlug[] = [];
  const failed: ProviderFailure[] = [];
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
    duplicatesMerged += batch.duplicatesMerged;
    if (batch.jobs.length > 0) hit.push(provider);
    let firsts = 0;
    for (const job of batch.jobs) {
      if (seen.has(job.id)) {
        duplicatesMerged += 1;
        continue;
      }
      seen.set(job.id, job);
      firsts += 1;
    }
    contributions[provider] = firsts;
  }

  const data = [...seen.values()].slice(0, input.limit);
  return {
    data,
    next_cursor: null,
    metadata: {
      request_id: input.requestId,
      status: failed.length > 0 ? 'partial' : 'complete',
      duplicates_merged: duplicatesMerged,
      providers: { tried: [...input.providers], hit, failed, contributions },
      field_coverage: fieldCoverage(data),
      latency_ms: Math.max(0, Math.round(input.now - input.startedAt)),
    },
  };
}

export function fieldCoverage(jobs: readonly Job[]): Record<string, number> {
  const coverage: Record<string, number> = {};
  for (const field of COVERAGE_FIELDS) {
    if (jobs.length === 0) {
      coverage[field] = 0;
      continue;
    }
    const present = jobs.filter((job) => valueAt(job, field) !== null && valueAt(job, field) !== undefined).length;
    coverage[field] = Math.round((present / jobs.length) * 1000) / 1000;
  }
  return coverage;
}

function valueAt(job: Job, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined), job);
}
