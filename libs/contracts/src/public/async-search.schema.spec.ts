import { examples } from '../examples.js';
import {
  AsyncSearchCreateRequestSchema,
  AsyncSearchReadQuerySchema,
  AsyncSearchSchema,
} from './async-search.schema.js';
import { describeRequestError } from './request-issues.js';

const ok = (value: unknown) => AsyncSearchCreateRequestSchema.safeParse(value).success;

describe('AsyncSearchCreateRequestSchema', () => {
  it('requires filters and applies defaults', () => {
    expect(ok({})).toBe(false);
    expect(AsyncSearchCreateRequestSchema.safeParse({}).error?.issues[0]?.path).toEqual(['filters']);
    expect(AsyncSearchCreateRequestSchema.parse({ filters: {} })).toEqual({
      filters: {},
      waterfall: { strategy: 'cheapest_first', timeout_ms: 10_000, min_sources: 2 },
      limit: 1000,
    });
  });

  it.each([
    [0, false],
    [1, true],
    [10000, true],
    [10001, false],
  ])('limit %p -> %p', (limit, expected) => expect(ok({ filters: {}, limit })).toBe(expected));

  it('rejects unknown top-level properties as invalid_request, dry_run included', () => {
    for (const body of [
      { filters: {}, dry_run: true },
      { filters: {}, foo: 1 },
    ]) {
      const result = AsyncSearchCreateRequestSchema.safeParse(body);
      expect(result.error?.issues[0]).toMatchObject({ code: 'unrecognized_keys', path: [] });
      if (result.error) expect(describeRequestError(result.error).code).toBe('invalid_request');
    }
  });

  it('still reports unknown keys inside filters as unknown_filter', () => {
    const result = AsyncSearchCreateRequestSchema.safeParse({ filters: { foo: 1 } });
    expect(result.error && describeRequestError(result.error)).toMatchObject({
      code: 'unknown_filter',
      param: 'filters.foo',
    });
  });

  it('requires an http(s) webhook_url', () => {
    expect(ok({ filters: {}, webhook_url: 'https://hooks.example/x' })).toBe(true);
    expect(ok({ filters: {}, webhook_url: 'not-a-url' })).toBe(false);
    expect(ok({ filters: {}, webhook_url: null })).toBe(false);
  });
});

describe('AsyncSearchSchema', () => {
  const queued = {
    id: 'srch_1',
    status: 'queued',
    created_at: '2026-10-01T12:00:00Z',
    updated_at: '2026-10-01T12:00:00Z',
    completed_at: null,
    webhook_url: null,
    jobs_found: 0,
    data: [],
    next_cursor: null,
    metadata: null,
  };

  it('parses a queued and a completed search', () => {
    expect(AsyncSearchSchema.parse(queued)).toEqual(queued);
    const completed = {
      ...queued,
      status: 'completed',
      completed_at: '2026-10-01T12:01:00Z',
      jobs_found: 1,
      data: [examples.job()],
      metadata: examples.metadata(),
    };
    expect(AsyncSearchSchema.parse(completed)).toEqual(completed);
  });

  it('rejects a wrong status and a wrong id prefix', () => {
    expect(AsyncSearchSchema.safeParse({ ...queued, status: 'done' }).success).toBe(false);
    expect(AsyncSearchSchema.safeParse({ ...queued, id: 'req_1' }).success).toBe(false);
  });
});

describe('AsyncSearchReadQuerySchema', () => {
  it('defaults limit to 100 and coerces query strings', () => {
    expect(AsyncSearchReadQuerySchema.parse({})).toEqual({ limit: 100 });
    expect(AsyncSearchReadQuerySchema.parse({ limit: '7', cursor: 'cur_x' })).toEqual({ limit: 7, cursor: 'cur_x' });
  });

  it.each(['0', '101', '1.5', 'abc', ''])('rejects limit %p', (limit) => {
    expect(AsyncSearchReadQuerySchema.safeParse({ limit }).success).toBe(false);
  });

  it('accepts the bounds 1 and 100 and rejects unknown parameters', () => {
    expect(AsyncSearchReadQuerySchema.parse({ limit: '1' }).limit).toBe(1);
    expect(AsyncSearchReadQuerySchema.parse({ limit: '100' }).limit).toBe(100);
    expect(AsyncSearchReadQuerySchema.safeParse({ limt: '5' }).success).toBe(false);
  });
});
