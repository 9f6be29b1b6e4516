import { examples } from '../examples.js';
import {
  DryRunEstimateSchema,
  JobSearchRequestSchema,
  JobSearchResponseDraftSchema,
  JobSearchResponseSchema,
  JobSearchResultSchema,
  SearchMetadataSchema,
} from './job-search.schema.js';

const ok = (value: unknown) => JobSearchRequestSchema.safeParse(value).success;

describe('JobSearchRequestSchema', () => {
  it('applies every default to an empty body', () => {
    expect(JobSearchRequestSchema.parse({})).toEqual({
      filters: {},
      waterfall: { strategy: 'cheapest_first', timeout_ms: 10_000, min_sources: 2 },
      limit: 25,
      dry_run: false,
    });
  });

  it('applies waterfall defaults inside a partial waterfall', () => {
    expect(JobSearchRequestSchema.parse({ waterfall: { strategy: 'max_coverage' } }).waterfall).toEqual({
      strategy: 'max_coverage',
      timeout_ms: 10_000,
      min_sources: 2,
    });
  });

  it('is idempotent: a parsed request parses to itself', () => {
    const parsed = JobSearchRequestSchema.parse({
      filters: { title_or: ['x'] },
      limit: 10,
      cursor: 'cur_1',
      dry_run: false,
    });
    expect(JobSearchRequestSchema.parse(parsed)).toEqual(parsed);
  });

  it.each([
    [0, false],
    [1, true],
    [100, true],
    [101, false],
    [2.5, false],
    ['10', false],
  ])('limit %p -> %p', (limit, expected) => expect(ok({ limit })).toBe(expected));

  it('requires a cur_ cursor and a boolean dry_run', () => {
    expect(ok({ cursor: 'cur_abc' })).toBe(true);
    expect(ok({ cursor: 'abc' })).toBe(false);
    expect(ok({ cursor: 'srch_abc' })).toBe(false);
    expect(ok({ dry_run: 'true' })).toBe(false);
  });

  it('refuses a dry run with a cursor, naming dry_run: a next page is never estimated for free', () => {
    expect(ok({ cursor: 'cur_abc', dry_run: false })).toBe(true);
    expect(JobSearchRequestSchema.safeParse({ cursor: 'cur_abc', dry_run: true }).error?.issues).toEqual([
      expect.objectContaining({ code: 'custom', path: ['dry_run'] }),
    ]);
  });

  it('reports an unknown filter at the filters path and an unknown field at the root', () => {
    expect(JobSearchRequestSchema.safeParse({ filters: { color: 'red' } }).error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', path: ['filters'], keys: ['color'] }),
    ]);
    expect(JobSearchRequestSchema.safeParse({ page: 2 }).error?.issues).toEqual([
      expect.objectContaining({ code: 'unrecognized_keys', path: [], keys: ['page'] }),
    ]);
  });

  it('reports nested bounds with their path', () => {
    expect(JobSearchRequestSchema.safeParse({ waterfall: { timeout_ms: 999 } }).error?.issues[0]?.path).toEqual([
      'waterfall',
      'timeout_ms',
    ]);
  });
});

describe('SearchMetadataSchema', () => {
  it('parses the example', () => expect(SearchMetadataSchema.parse(examples.metadata())).toEqual(examples.metadata()));

  it('requires partial when a provider failed', () => {
    const failed = {
      ...examples.metadata(),
      providers: { ...examples.metadata().providers, failed: [{ provider: 'provider_b', code: 'provider_timeout' }] },
    };
    expect(SearchMetadataSchema.safeParse(failed).error?.issues[0]?.path).toEqual(['status']);
    expect(SearchMetadataSchema.safeParse({ ...failed, status: 'partial' }).success).toBe(true);
  });

  it('rejects unknown failure codes, coverage above 1, unknown contribution slugs and negative counts', () => {
    const m = examples.metadata();
    expect(
      SearchMetadataSchema.safeParse({
        ...m,
        status: 'partial',
        providers: { ...m.providers, failed: [{ provider: 'provider_b', code: 'oops' }] },
      }).success,
    ).toBe(false);
    expect(SearchMetadataSchema.safeParse({ ...m, field_coverage: { salary: 1.01 } }).success).toBe(false);
    expect(
      SearchMetadataSchema.safeParse({ ...m, providers: { ...m.providers, contributions: { provider_z: 1 } } }).success,
    ).toBe(false);
    expect(SearchMetadataSchema.safeParse({ ...m, credits_charged: -1 }).success).toBe(false);
    expect(SearchMetadataSchema.safeParse({ ...m, status: 'done' }).success).toBe(false);
    expect(SearchMetadataSchema.safeParse({ ...m, request_id: 'abc' }).success).toBe(false);
  });
});

describe('JobSearchResponseSchema', () => {
  it('parses a page and the last page', () => {
    expect(JobSearchResponseSchema.parse(examples.searchResponse())).toEqual(examples.searchResponse());
    expect(JobSearchResponseSchema.safeParse({ ...examples.searchResponse(), next_cursor: null }).success).toBe(true);
  });

  it('rejects more than 100 jobs and a missing metadata', () => {
    const r = examples.searchResponse();
    expect(JobSearchResponseSchema.safeParse({ ...r, data: Array(101).fill(examples.job()) }).success).toBe(false);
    expect(JobSearchResponseSchema.safeParse({ data: r.data, next_cursor: null }).success).toBe(false);
  });

  it('draft metadata has no credit fields, no field_coverage and no contributions', () => {
    const r = examples.searchResponse();
    expect(JobSearchResponseDraftSchema.safeParse(r).success).toBe(false);
    const { credits_charged: _c, jobs_already_paid: _p, credits_remaining: _r, ...withCoverage } = r.metadata;
    expect(JobSearchResponseDraftSchema.safeParse({ ...r, metadata: withCoverage }).success).toBe(false);
    const { field_coverage: _f, ...withContributions } = withCoverage;
    expect(JobSearchResponseDraftSchema.safeParse({ ...r, metadata: withContributions }).success).toBe(false);
    const { contributions: _n, ...providers } = withContributions.providers;
    const draft = { ...withContributions, providers };
    expect(JobSearchResponseDraftSchema.safeParse({ ...r, metadata: draft }).success).toBe(true);
  });
});

describe('DryRunEstimateSchema', () => {
  const estimate = {
    request_id: 'req_1',
    estimate: {
      expected_unique_jobs_range: { min: 10, max: 40 },
      providers_planned: ['own_index', 'provider_a'],
      credits_range: { min: 0, max: 0 },
    },
  };

  it('parses an estimate, also as a sync search result', () => {
    expect(DryRunEstimateSchema.parse(estimate)).toEqual(estimate);
    expect(JobSearchResultSchema.parse(estimate)).toEqual(estimate);
    expect(JobSearchResultSchema.parse(examples.searchResponse())).toEqual(examples.searchResponse());
  });

  it('rejects an inverted range', () => {
    const inverted = { ...estimate, estimate: { ...estimate.estimate, credits_range: { min: 5, max: 1 } } };
    expect(DryRunEstimateSchema.safeParse(inverted).error?.issues[0]?.path).toEqual([
      'estimate',
      'credits_range',
      'max',
    ]);
  });
});
