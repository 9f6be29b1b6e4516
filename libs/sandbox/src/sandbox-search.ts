/**
 * `POST /sandbox/jobs/search` (and any `POST /jobs/search` made with a test key): the live
 * endpoint's request and response shapes, answered with fixed illustrative data whatever is sent
 * (interface.md). No provider, no database, no charge.
 *
 * Choices where the spec is silent (docs/decisions/0007-sandbox-and-test-keys.md):
 * - The caller validates the body first (the live endpoint's schema: a body of the wrong shape
 *   is a 400); every valid body then gets the same answer. Only the response's shape follows the
 *   request: `dry_run: true` gets the fixed estimate, any other body the fixed page.
 * - The fixed page is the whole sandbox dataset, 40 jobs (closed ones too, so every feature of a
 *   Job is shown), newest first sighting first, `next_cursor: null`. `filters`, `waterfall`,
 *   `limit` and `cursor` do not change it; a `cursor` must still be a well-formed `cur_` string
 *   (schema), but is then ignored: the sandbox never issues one, so there is nothing to page to.
 * - Metadata says what happened: `status` complete, no provider tried, hit or failed (none is
 *   called) and `contributions` empty, `duplicates_merged` 0 (nothing was merged: the jobs are
 *   fixed), `credits_charged` and `jobs_already_paid` 0, `latency_ms` 0, `field_coverage` over the
 *   page. Only `request_id` and `credits_remaining` (given by the caller: 0 without a key, the
 *   account's balance for a test key) vary. The jobs' own `sources` still name fictional
 *   providers' sightings, so a client sees the whole Job shape.
 * - The estimate: `expected_unique_jobs_range` is the fixed page's size (min = max), no provider
 *   planned (none would be called), `credits_range` 0 to 0 because the sandbox never charges.
 */
import type {
  DryRunEstimate,
  Job,
  JobSearchRequest,
  JobSearchResponse,
  JobSearchResult,
  SearchMetadata,
} from '@jobs/contracts';
import { SANDBOX_JOBS } from './sandbox-dataset.js';

export interface SandboxSearchContext {
  /** the request's `req_...` id, echoed in `metadata.request_id` */
  readonly requestId: string;
  /** reported in `metadata.credits_remaining`; nothing is ever deducted */
  readonly creditsRemaining: number;
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

/** The jobs of the fixed page: every sandbox job, in the dataset's order. */
export const SANDBOX_PAGE_JOBS: readonly Job[] = SANDBOX_JOBS;

type FixedMetadata = Omit<SearchMetadata, 'request_id' | 'credits_remaining'>;

function fixedMetadata(page: readonly Job[]): FixedMetadata {
  const field_coverage = Object.fromEntries(
    Object.entries(COVERAGE).map(([field, read]) => [
      field,
      page.length === 0 ? 0 : page.filter((job) => read(job) !== null).length / page.length,
    ]),
  );
  return {
    status: 'complete',
    credits_charged: 0,
    jobs_already_paid: 0,
    duplicates_merged: 0,
    providers: { tried: [], hit: [], failed: [], contributions: {} },
    field_coverage,
    latency_ms: 0,
  };
}

/** Computed once: the answer never depends on the request. */
const FIXED_METADATA = fixedMetadata(SANDBOX_PAGE_JOBS);

/**
 * Answers a parsed (so already validated) search request from the sandbox: the fixed estimate
 * when `dry_run` is true, else the fixed page. Nothing else in the request is read.
 */
export function searchSandbox(
  request: Pick<JobSearchRequest, 'dry_run'>,
  context: SandboxSearchContext,
): JobSearchResult {
  if (request.dry_run) {
    const estimate: DryRunEstimate = {
      request_id: context.requestId,
      estimate: {
        expected_unique_jobs_range: { min: SANDBOX_PAGE_JOBS.length, max: SANDBOX_PAGE_JOBS.length },
        providers_planned: [],
        credits_range: { min: 0, max: 0 },
      },
    };
    return estimate;
  }
  const response: JobSearchResponse = {
    data: [...SANDBOX_PAGE_JOBS],
    next_cursor: null,
    metadata: {
      request_id: context.requestId,
      ...structuredClone(FIXED_METADATA),
      credits_remaining: context.creditsRemaining,
    },
  };
  return response;
}
