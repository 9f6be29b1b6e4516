import {
  DryRunEstimateSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
  PROVIDER_SLUGS,
  type JobSearchRequestInput,
  type JobSearchResponse,
} from '@jobs/contracts';
import { SANDBOX_JOBS } from './sandbox-dataset.js';
import { SANDBOX_PAGE_JOBS, searchSandbox } from './sandbox-search.js';

const context = { requestId: 'req_sandboxtest', creditsRemaining: 0 };
const search = (input: JobSearchRequestInput) => searchSandbox(JobSearchRequestSchema.parse(input), context);
const page = (input: JobSearchRequestInput): JobSearchResponse => JobSearchResponseSchema.parse(search(input));

/** Valid bodies that a filtering search would answer very differently. */
const VARIED: JobSearchRequestInput[] = [
  {},
  { limit: 1 },
  { limit: 100 },
  { filters: { title_or: ['engineer'], country_code_or: ['DE', 'SE', 'JP'], remote: true }, limit: 3 },
  { filters: { title_or: ['astronaut'] } },
  { filters: { include_closed: false, salary_min_gte: 150000, seniority_or: ['senior'] }, limit: 7 },
  { waterfall: { strategy: 'own_only' } },
  { waterfall: { providers: ['provider_e', 'provider_f'] }, limit: 2 },
  { waterfall: { strategy: 'consensus', min_sources: 3 }, limit: 50 },
  { limit: 2, cursor: 'cur_neverissuedbythesandbox' },
  { dry_run: false, filters: { company_domain_or: ['acme-robotics.example'] } },
];

describe('searchSandbox', () => {
  it('answers the whole fixed dataset as one free, complete, final page', () => {
    const body = page({});
    expect(body.data).toEqual(SANDBOX_JOBS);
    expect(SANDBOX_PAGE_JOBS).toBe(SANDBOX_JOBS);
    expect(body.data.some((job) => job.status === 'closed')).toBe(true);
    expect(body.next_cursor).toBeNull();
    expect(body.metadata).toMatchObject({
      request_id: 'req_sandboxtest',
      status: 'complete',
      credits_charged: 0,
      jobs_already_paid: 0,
      credits_remaining: 0,
      latency_ms: 0,
    });
    // no provider is called and nothing is merged: the metadata says so
    expect(body.metadata.providers).toEqual({ tried: [], hit: [], failed: [], contributions: {} });
    expect(body.metadata.duplicates_merged).toBe(0);
    // the jobs still show fictional providers' sightings: the whole Job shape
    expect(new Set(body.data.flatMap((job) => job.sources.map((s) => s.provider))).size).toBe(PROVIDER_SLUGS.length);
    expect(body.metadata.field_coverage['salary']).toBe(
      body.data.filter((job) => job.salary !== null).length / body.data.length,
    );
  });

  it('answers every valid body without dry_run with exactly the same page, byte for byte', () => {
    const reference = JSON.stringify(search({}));
    for (const input of VARIED) expect(JSON.stringify(search(input))).toBe(reference);
  });

  it("reports the caller's credits_remaining untouched and never charges", () => {
    const body = JobSearchResponseSchema.parse(
      searchSandbox(JobSearchRequestSchema.parse({ limit: 1 }), { ...context, creditsRemaining: 42 }),
    );
    expect(body.metadata.credits_remaining).toBe(42);
    expect(body.metadata.credits_charged).toBe(0);
    expect(body.data).toEqual(page({}).data);
  });

  it('answers dry_run with one fixed estimate of the fixed page, free, whatever else is sent', () => {
    const estimate = DryRunEstimateSchema.parse(search({ dry_run: true }));
    expect(estimate).toEqual({
      request_id: 'req_sandboxtest',
      estimate: {
        expected_unique_jobs_range: { min: SANDBOX_JOBS.length, max: SANDBOX_JOBS.length },
        providers_planned: [],
        credits_range: { min: 0, max: 0 },
      },
    });
    // a dry run never takes a cursor (the request schema refuses the pair)
    for (const { cursor: _cursor, ...input } of VARIED) expect(search({ ...input, dry_run: true })).toEqual(estimate);
  });

  it('hands out copies: a caller changing its answer changes no later answer', () => {
    const first = page({});
    first.data.pop();
    first.metadata.providers.tried.push('own_index');
    first.metadata.field_coverage['salary'] = 0;
    expect(page({})).toEqual(JobSearchResponseSchema.parse(search({ limit: 5 })));
    expect(page({}).data).toHaveLength(SANDBOX_JOBS.length);
    expect(page({}).metadata.providers.tried).toHaveLength(0);
    expect(Object.isFrozen(SANDBOX_JOBS)).toBe(true);
  });
});
