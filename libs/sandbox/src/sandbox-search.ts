/**
 * `POST /sandbox/jobs/search` (and any search made with a test key): the live endpoint's request
 * and response shapes answered from the fixed sandbox data. No provider, no database, no charge.
 *
 * Choices (README material):
 * - The waterfall is honoured on the fixed data: `own_only` plans `own_index` only, a
 *   `providers` list plans those providers, every other strategy plans all seven; a job is kept
 *   when a planned provider saw it (`consensus`: at least `min_sources` of them), and its
 *   `sources` list only the planned providers.
 * - Order: newest first sighting first, then id. `limit` and signed `cur_` cursors page through
 *   that order; a cursor is valid only with the same `filters`, `waterfall` and `limit`.
 * - Metadata: `status` complete, `credits_charged` and `jobs_already_paid` 0, `latency_ms` 0
 *   (nothing was fetched), `duplicates_merged` the extra sources of the returned jobs,
 *   `contributions` the provider that saw each returned job first, `field_coverage` over the
 *   returned jobs (0 on an empty page). `credits_remaining` is given by the caller.
 * - `dry_run`: `expected_unique_jobs_range` is the exact number of matching jobs (min = max),
 *   `credits_range` is 0 to 0 because the sandbox never charges.
 */
import type { DryRunEstimate, Job, JobSearchRequest, JobSearchResponse, JobSearchResult, ProviderSlug, SearchMetadata } from '@jobs/contracts';
import type { CursorCodec } from '@jobs/cursors';
import { decodeSandboxCursor, encodeSandboxCursor, requestDigest } from './sandbox-cursor.js';
import { SANDBOX_AS_OF, SANDBOX_JOBS, SANDBOX_PROVIDERS } from './sandbox-dataset.js';
import { matchesFilters } from '@jobs/job-filters';

export interface SandboxSearchContext {
  /** the request's `req_...` id, echoed in `metadata.request_id` */
  readonly requestId: string;
  /** reported in `metadata.credits_remaining`; nothing is ever deducted */
  readonly creditsRemaining: number;
  /** signs and checks `cur_` cursors; shared with every replica through CURSOR_SECRET */
  readonly cursors: CursorCodec;
}

/** The cursor was not issued by the sandbox for this very search (altered, forged or reused). */
export class SandboxCursorError extends Error {
  constructor() {
    super('This cursor does not belong to this search: send the next_cursor of the previous page with the same filters, waterfall and limit.');
    this.name = 'SandboxCursorError';
  }
}

/** Fields reported in `metadata.field_coverage`, with how to read each from a job. */
const COVERAGE: Record<string, (job: Job) => unknown> = {
  salary: (job) => job.salary,
  seniority: (job) => job.seniority,
  employment_type: (job) => job.employment_type,
  job_family: (job) => job.job_family,
  'location.remote': (job) => job.location.remote,
  'location.country_code': (job) => job.location.country_code,
  description: (job) => job.description,
  apply_url: (job) => job.apply_url,
  posted_at: (job) => job.posted_at,
};

export function plannedProviders(request: JobSearchRequest): ProviderSlug[] {
  if (request.waterfall.strategy === 'own_only') return ['own_index'];
  return [...(request.waterfall.providers ?? SANDBOX_PROVIDERS)];
}

/** Every sandbox job matching the request, with sources narrowed to the planned providers. */
export function matchingSandboxJobs(request: JobSearchRequest): Job[] {
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

function cursorScope(request: JobSearchRequest): string {
  return requestDigest({ filters: request.filters, waterfall: request.waterfall, limit: request.limit });
}

function metadataFor(page: Job[], planned: ProviderSlug[], context: SandboxSearchContext): SearchMetadata {
  const contributions: Partial<Record<ProviderSlug, number>> = Object.fromEntries(planned.map((slug) => [slug, 0]));
  const seen = new Set<ProviderSlug>();
  for (const job of page) {
    for (const source of job.sources) seen.add(source.provider);
    const first = [...job.sources].sort((a, b) => a.first_seen_at.localeCompare(b.first_seen_at))[0];
    if (first) contributions[first.provider] = (contributions[first.provider] ?? 0) + 1;
  }
  const field_coverage = Object.fromEntries(
    Object.entries(COVERAGE).map(([field, read]) => [field, page.length === 0 ? 0 : page.filter((job) => read(job) !== null).length / page.length]),
  );
  return {
    request_id: context.requestId,
    status: 'complete',
    credits_charged: 0,
    jobs_already_paid: 0,
    duplicates_merged: page.reduce((sum, job) => sum + job.sources.length - 1, 0),
    credits_remaining: context.creditsRemaining,
    providers: { tried: planned, hit: planned.filter((slug) => seen.has(slug)), failed: [], contributions },
    field_coverage,
    latency_ms: 0,
  };
}

/** Answers a parsed search request from the sandbox data; throws SandboxCursorError on a foreign cursor. */
export function searchSandbox(request: JobSearchRequest, context: SandboxSearchContext): JobSearchResult {
  const scope = cursorScope(request);
  let offset = 0;
  if (request.cursor !== undefined) {
    const decoded = decodeSandboxCursor(context.cursors, scope, request.cursor);
    if (decoded === null) throw new SandboxCursorError();
    offset = decoded;
  }
  const planned = plannedProviders(request);
  const matches = matchingSandboxJobs(request);
  if (request.dry_run) {
    const estimate: DryRunEstimate = {
      request_id: context.requestId,
      estimate: {
        expected_unique_jobs_range: { min: matches.length, max: matches.length },
        providers_planned: planned,
        credits_range: { min: 0, max: 0 },
      },
    };
    return estimate;
  }
  const page = matches.slice(offset, offset + request.limit);
  const end = offset + page.length;
  const response: JobSearchResponse = {
    data: page,
    next_cursor: end < matches.length ? encodeSandboxCursor(context.cursors, scope, end) : null,
    metadata: metadataFor(page, planned, context),
  };
  return response;
}
