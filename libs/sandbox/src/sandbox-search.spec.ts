import {
  DryRunEstimateSchema,
  JobSearchRequestSchema,
  JobSearchResponseSchema,
  type JobSearchRequestInput,
  type JobSearchResponse,
} from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { SANDBOX_JOBS } from './sandbox-dataset.js';
import { SandboxCursorError, searchSandbox } from './sandbox-search.js';

const cursors = new CursorCodec('a-sandbox-test-secret');
const context = { requestId: 'req_sandboxtest', creditsRemaining: 0, cursors };
const search = (input: JobSearchRequestInput) => searchSandbox(JobSearchRequestSchema.parse(input), context);
const page = (input: JobSearchRequestInput): JobSearchResponse => JobSearchResponseSchema.parse(search(input));
const openJobs = SANDBOX_JOBS.filter((job) => job.status === 'open');

describe('searchSandbox', () => {
  it('answers the full response shape with the default limit, free and complete', () => {
    const body = page({});
    expect(body.data.length).toBe(25);
    expect(body.data).toEqual(openJobs.slice(0, 25));
    expect(body.next_cursor).toMatch(/^cur_/);
    expect(body.metadata).toMatchObject({ request_id: 'req_sandboxtest', status: 'complete', credits_charged: 0, jobs_already_paid: 0, credits_remaining: 0, latency_ms: 0 });
    expect(body.metadata.providers.tried).toHaveLength(7);
    expect(body.metadata.providers.failed).toEqual([]);
    expect(body.metadata.duplicates_merged).toBe(body.data.reduce((n, job) => n + job.sources.length - 1, 0));
    const contributed = Object.values(body.metadata.providers.contributions).reduce((n, c) => n + (c ?? 0), 0);
    expect(contributed).toBe(body.data.length);
    expect(body.metadata.field_coverage['salary']).toBe(body.data.filter((job) => job.salary !== null).length / body.data.length);
  });

  it('reports the caller\'s credits_remaining untouched', () => {
    const body = JobSearchResponseSchema.parse(searchSandbox(JobSearchRequestSchema.parse({ limit: 1 }), { ...context, creditsRemaining: 42 }));
    expect(body.metadata.credits_remaining).toBe(42);
    expect(body.metadata.credits_charged).toBe(0);
  });

  it('pages through every match with signed cursors, then ends with next_cursor null', () => {
    const request = { filters: { include_closed: true }, limit: 15 };
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const body = page({ ...request, ...(cursor ? { cursor } : {}) });
      seen.push(...body.data.map((job) => job.id));
      cursor = body.next_cursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual(SANDBOX_JOBS.map((job) => job.id));
  });

  it('refuses a cursor used with different filters, or altered', () => {
    const first = page({ filters: { title_or: ['engineer'] }, limit: 2 });
    expect(first.next_cursor).not.toBeNull();
    const cursor = first.next_cursor!;
    expect(() => search({ filters: { title_or: ['data'] }, limit: 2, cursor })).toThrow(SandboxCursorError);
    expect(() => search({ filters: { title_or: ['engineer'] }, limit: 3, cursor })).toThrow(SandboxCursorError);
    expect(() => search({ filters: { title_or: ['engineer'] }, limit: 2, cursor: `${cursor.slice(0, -1)}z` })).toThrow(SandboxCursorError);
    const second = page({ filters: { title_or: ['engineer'] }, limit: 2, cursor });
    expect(second.data[0]?.id).not.toBe(first.data[0]?.id);
  });

  it('applies filters deterministically', () => {
    const a = page({ filters: { country_code_or: ['GB'], include_closed: true }, limit: 100 });
    const b = page({ filters: { include_closed: true, country_code_or: ['GB'] }, limit: 100 });
    expect(a).toEqual(b);
    expect(a.data.length).toBeGreaterThan(1);
    expect(a.data.every((job) => job.location.country_code === 'GB')).toBe(true);
    expect(a.data.some((job) => job.status === 'closed')).toBe(true);
    expect(a.next_cursor).toBeNull();
    const none = page({ filters: { title_or: ['astronaut'] } });
    expect(none.data).toEqual([]);
    expect(none.next_cursor).toBeNull();
    expect(none.metadata.providers.hit).toEqual([]);
    expect(none.metadata.field_coverage['salary']).toBe(0);
  });

  it('honours the waterfall: own_only, a provider list and consensus', () => {
    const own = page({ waterfall: { strategy: 'own_only' }, limit: 100 });
    expect(own.metadata.providers.tried).toEqual(['own_index']);
    expect(own.data.length).toBeGreaterThan(0);
    expect(own.data.every((job) => job.sources.length === 1 && job.sources[0]?.provider === 'own_index')).toBe(true);
    const listed = page({ waterfall: { providers: ['provider_e', 'provider_f'] }, limit: 100 });
    expect(listed.metadata.providers.tried).toEqual(['provider_e', 'provider_f']);
    expect(listed.data.every((job) => job.sources.every((s) => s.provider === 'provider_e' || s.provider === 'provider_f'))).toBe(true);
    const consensus = page({ waterfall: { strategy: 'consensus', min_sources: 3 }, limit: 100 });
    expect(consensus.data.length).toBeGreaterThan(0);
    expect(consensus.data.every((job) => job.sources.length >= 3)).toBe(true);
    expect(consensus.data.length).toBeLessThan(page({ limit: 100 }).data.length);
  });

  it('answers dry_run with an estimate of every match, free', () => {
    const estimate = DryRunEstimateSchema.parse(search({ filters: { title_or: ['engineer'] }, limit: 1, dry_run: true }));
    const all = page({ filters: { title_or: ['engineer'] }, limit: 100 });
    expect(estimate).toEqual({
      request_id: 'req_sandboxtest',
      estimate: { expected_unique_jobs_range: { min: all.data.length, max: all.data.length }, providers_planned: all.metadata.providers.tried, credits_range: { min: 0, max: 0 } },
    });
  });

  it('never hands out the frozen dataset objects for mutation', () => {
    expect(Object.isFrozen(SANDBOX_JOBS)).toBe(true);
  });
});
