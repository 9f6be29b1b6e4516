/**
 * The Filters object and the waterfall applied to the sandbox data. Only a test key's async
 * search (`POST /v1/searches`, stored completed at once) filters the sandbox: the sync sandbox
 * (`POST /v1/sandbox/jobs/search`, and `POST /v1/jobs/search` with a test key) answers one fixed
 * page whatever is sent (`sandbox-search.ts`).
 *
 * - `own_only` plans `own_index` only, a `providers` list plans those providers, every other
 *   strategy plans all seven; a job is kept when a planned provider saw it (`consensus`: at least
 *   `min_sources` of them), and its `sources` list only the planned providers.
 * - The filters have their one meaning of `@jobs/job-filters`, with `now` at `SANDBOX_AS_OF`.
 */
import type { Job, JobSearchRequest, ProviderSlug } from '@jobs/contracts';
import { matchesFilters } from '@jobs/job-filters';
import { SANDBOX_AS_OF, SANDBOX_JOBS, SANDBOX_PROVIDERS } from './sandbox-dataset.js';

/** The providers a request's waterfall plans on the sandbox data. */
export function plannedProviders(request: Pick<JobSearchRequest, 'waterfall'>): ProviderSlug[] {
  if (request.waterfall.strategy === 'own_only') return ['own_index'];
  return [...(request.waterfall.providers ?? SANDBOX_PROVIDERS)];
}

/** Every sandbox job matching the request, newest first, with sources narrowed to the planned providers. */
export function matchingSandboxJobs(request: Pick<JobSearchRequest, 'filters' | 'waterfall'>): Job[] {
  const planned = plannedProviders(request);
  const needed = request.waterfall.strategy === 'consensus' ? request.waterfall.min_sources : 1;
  const now = Date.parse(SANDBOX_AS_OF);
  const matches: Job[] = [];
  for (const job of SANDBOX_JOBS) {
    if (!matchesFilters(job, request.filters, now)) continue;
    const sources = job.sources.filter((source) => planned.includes(source.provider));
    if (sources.length < needed) continue;
    matches.push(sources.length === job.sources.length ? job : { ...job, sources });
  }
  return matches;
}
