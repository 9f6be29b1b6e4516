import { examples, type AsyncSearch } from '@jobs/contracts';
import { ASYNC_SEARCH_TOOLS, AsyncSearchSummarySchema, summarizeAsyncSearch } from './async-search-tools.js';
import { summarizeJob } from './job-summary.js';

const T = '2026-10-01T12:00:00.000Z';
const search = (patch: Partial<AsyncSearch>): AsyncSearch => ({
  id: 'srch_1',
  status: 'running',
  created_at: T,
  updated_at: T,
  completed_at: null,
  webhook_url: null,
  jobs_found: 40,
  data: [],
  next_cursor: null,
  metadata: null,
  ...patch,
});
const poll = ASYNC_SEARCH_TOOLS.find((tool) => tool.name === 'get_async_search')!;
const textOf = (patch: Partial<AsyncSearch>) =>
  poll.summary(summarizeAsyncSearch(search(patch)), { status: 200, headers: {}, body: undefined });

describe('summarizeAsyncSearch', () => {
  it('keeps the search as the API answers it, each job as search_jobs summarises it', () => {
    const job = examples.job();
    const summary = summarizeAsyncSearch(search({ status: 'completed', data: [job], metadata: examples.metadata() }));
    expect(summary.data).toEqual([summarizeJob(job)]);
    expect(summary).toMatchObject({ id: 'srch_1', status: 'completed', metadata: examples.metadata() });
    expect(AsyncSearchSummarySchema.parse(summary)).toEqual(summary);
  });
});

describe("an async search's text: what to do next", () => {
  it.each([
    [
      { status: 'queued', jobs_found: 0 },
      'Async search srch_1 is queued, 0 jobs found so far. Poll get_async_search in a few seconds.',
    ],
    [
      { status: 'running' },
      'Async search srch_1 is running, 40 jobs found so far. Poll get_async_search in a few seconds.',
    ],
    [
      { status: 'on_hold' },
      'Async search srch_1 is on_hold, 40 jobs found; the account ran out of credits: ' +
        'collection resumes after a top-up.',
    ],
    [{ status: 'failed', jobs_found: 0 }, 'Async search srch_1 is failed, 0 jobs found: every provider failed.'],
  ] as const)('%j', (patch, text) => {
    expect(textOf(patch)).toBe(text);
  });

  it('gives the cost, the page, the cursor and the ids of a finished one', () => {
    const job = examples.job();
    expect(
      textOf({
        status: 'partial',
        data: [job],
        next_cursor: 'cur_2',
        metadata: { ...examples.metadata(), credits_charged: 12 },
      }),
    ).toBe(
      'Async search srch_1 is partial, 40 jobs found; charged 12 credits in all. This page: 1 job. ' +
        `More: pass cursor "cur_2".\nIds: ${job.id}.`,
    );
  });
});
