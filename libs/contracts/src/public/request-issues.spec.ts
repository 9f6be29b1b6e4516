import { z } from 'zod';
import { JobSearchRequestSchema } from './job-search.schema.js';
import { describeRequestError, formatParam, issuePath, suggestFilterName } from './request-issues.js';

function problem(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) throw new Error('expected a failure');
  return describeRequestError(result.error);
}

describe('describeRequestError', () => {
  it('maps an unknown filter to unknown_filter with the key in param and a suggestion', () => {
    expect(problem(JobSearchRequestSchema, { filters: { titel_or: ['x'] } })).toEqual({
      code: 'unknown_filter',
      param: 'filters.titel_or',
      message: 'Unknown filter "titel_or". Did you mean "title_or"?',
    });
  });

  it('gives no suggestion for a far-off name', () => {
    expect(problem(JobSearchRequestSchema, { filters: { colour_of_office: 'red' } }).message).toBe(
      'Unknown filter "colour_of_office".',
    );
  });

  it('prefers unknown_filter over other issues of the same request', () => {
    expect(problem(JobSearchRequestSchema, { limit: 0, filters: { foo: 1 } }).code).toBe('unknown_filter');
  });

  it('maps bounds to invalid_request with the path as param', () => {
    expect(problem(JobSearchRequestSchema, { limit: 101 })).toMatchObject({ code: 'invalid_request', param: 'limit' });
    expect(problem(JobSearchRequestSchema, { waterfall: { timeout_ms: 30001 } })).toMatchObject({
      param: 'waterfall.timeout_ms',
    });
    expect(problem(JobSearchRequestSchema, { filters: { title_or: ['ok', ''] } })).toMatchObject({
      param: 'filters.title_or[1]',
    });
  });

  it('maps an unknown top-level field to invalid_request with the key as param', () => {
    expect(problem(JobSearchRequestSchema, { page: 2 })).toEqual({
      code: 'invalid_request',
      param: 'page',
      message: 'Unknown field "page".',
    });
  });

  it('has no param when the whole body is wrong', () => {
    expect(problem(JobSearchRequestSchema, 'nope')).toMatchObject({ code: 'invalid_request', param: undefined });
  });
});

describe('helpers', () => {
  it('formatParam joins keys with dots and indices with brackets', () => {
    expect(formatParam(['filters', 'title_or', 2])).toBe('filters.title_or[2]');
    expect(formatParam([])).toBeUndefined();
  });

  it('issuePath appends the unknown key', () => {
    const issue = z.strictObject({}).safeParse({ a: 1 }).error?.issues[0];
    expect(issue && issuePath(issue)).toEqual(['a']);
  });

  it('cuts a long unknown name where an error repeats it', () => {
    expect(problem(JobSearchRequestSchema, { filters: { ['q'.repeat(1_000_000)]: 1 } })).toEqual({
      code: 'unknown_filter',
      param: `filters.${'q'.repeat(64)}…`,
      message: `Unknown filter "${'q'.repeat(64)}…".`,
    });
  });

  it('suggestFilterName finds near misses only', () => {
    expect(suggestFilterName('country_code')).toBe('country_code_or');
    expect(suggestFilterName('REMOTE')).toBe('remote');
    expect(suggestFilterName('zzz')).toBeUndefined();
  });
});
