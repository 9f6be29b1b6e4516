import { JobsClient } from './client.js';
import { AsyncSearchFailedError } from './errors.js';
import { answer, FakeFetch, recordingSleep, type Sent } from './fake-fetch.spec-helper.js';
import { walkPages } from './paging.js';

const LIVE = 'svc_live_abcdefghijklmnop';

function clientOn(fallback: (sent: Sent) => ReturnType<typeof answer>) {
  const fake = new FakeFetch([], fallback);
  const { sleep: record, waits } = recordingSleep();
  let n = 0;
  let clock = 0;
  const sleep = (ms: number) => {
    clock += ms;
    return record(ms);
  };
  const client = new JobsClient({
    baseUrl: 'http://api.test/v1',
    apiKey: LIVE,
    fetch: fake.fetch,
    sleep,
    now: () => clock,
    idempotencyKey: () => `k${++n}`,
  });
  return { client, fake, waits };
}

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const job = (id: string) => ({ id, title: `Job ${id}` });
const billing = { 'x-credits-charged': '1', 'x-credits-remaining': '9' };

describe('sync search pages', () => {
  /** Three pages of two, one, zero-cursor. */
  const pages: Record<string, { data: unknown[]; next_cursor: string | null }> = {
    start: { data: [job('job_1'), job('job_2')], next_cursor: 'cur_a' },
    cur_a: { data: [job('job_3'), job('job_4')], next_cursor: 'cur_b' },
    cur_b: { data: [job('job_5')], next_cursor: null },
  };
  const server = (sent: Sent) => {
    const cursor = (sent.body as { cursor?: string }).cursor ?? 'start';
    return answer(200, { ...pages[cursor], metadata: {} }, billing);
  };

  it(
    'sends the same filters, waterfall and limit on every page ' + 'with the previous cursor, each with its own key',
    async () => {
      const { client, fake } = clientOn(server);
      const body = { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' as const }, limit: 2 };
      const seen = await collect(client.jobs.searchPages(body));
      expect(seen.map((p) => p.data.length)).toEqual([2, 2, 1]);
      expect(seen.every((p) => p.$response.credits.charged === 1)).toBe(true);
      expect(fake.sent.map((s) => s.body)).toEqual([body, { ...body, cursor: 'cur_a' }, { ...body, cursor: 'cur_b' }]);
      expect(fake.sent.map((s) => s.headers['idempotency-key'])).toEqual(['k1', 'k2', 'k3']);
    },
  );

  it('names the page keys <prefix>:<n> when given a prefix, so a rerun replays', async () => {
    const { client, fake } = clientOn(server);
    await collect(client.jobs.searchPages({ limit: 2 }, { idempotencyKeyPrefix: 'walk-7' }));
    expect(fake.sent.map((s) => s.headers['idempotency-key'])).toEqual(['walk-7:1', 'walk-7:2', 'walk-7:3']);
  });

  it('yields every job once with searchAll, and starts from a given cursor', async () => {
    const { client, fake } = clientOn(server);
    expect((await collect(client.jobs.searchAll({ limit: 2 }))).map((j) => j.id)).toEqual([
      'job_1',
      'job_2',
      'job_3',
      'job_4',
      'job_5',
    ]);
    fake.sent.length = 0;
    expect((await collect(client.jobs.searchAll({ limit: 2, cursor: 'cur_b' }))).map((j) => j.id)).toEqual(['job_5']);
    expect(fake.sent).toHaveLength(1);
  });

  it('stops early when the caller breaks, asking no further page', async () => {
    const { client, fake } = clientOn(server);
    for await (const found of client.jobs.searchAll({ limit: 2 })) if (found.id === 'job_2') break;
    expect(fake.sent).toHaveLength(1);
  });
});

describe('a walk within a credit budget (maxCredits)', () => {
  /** Pages of three new jobs each, a capped page charging up to its max_credits and ending there (billing's cut). */
  function cappedServer(pages = 5) {
    return (sent: Sent) => {
      const body = sent.body as { cursor?: string; waterfall?: { max_credits?: number } };
      const at = body.cursor ? Number(body.cursor.slice(4)) : 0;
      const cap = body.waterfall?.max_credits ?? Number.POSITIVE_INFINITY;
      const charged = Math.min(3, cap);
      const data = Array.from({ length: charged }, (_, i) => job(`job_${at + i}`));
      const next = at + charged < pages * 3 && charged > 0 ? `cur_${at + charged}` : null;
      return answer(
        200,
        { data, next_cursor: next, metadata: { credits_charged: charged } },
        { 'x-credits-charged': String(charged), 'x-credits-remaining': '100' },
      );
    };
  }

  it('sends each page the remainder as waterfall.max_credits and stops once it is spent', async () => {
    const { client, fake } = clientOn(cappedServer());
    const body = { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' as const }, limit: 3 };
    const pages = await collect(client.jobs.searchPages(body, { maxCredits: 7 }));
    expect(fake.sent.map((s) => (s.body as { waterfall: { max_credits: number } }).waterfall.max_credits)).toEqual([
      7, 4, 1,
    ]);
    expect(fake.sent.map((s) => (s.body as { waterfall: { strategy: string } }).waterfall.strategy)).toEqual([
      'max_coverage',
      'max_coverage',
      'max_coverage',
    ]);
    expect(pages.map((p) => p.$response.credits.charged)).toEqual([3, 3, 1]);
    expect(pages.at(-1)!.next_cursor).not.toBeNull(); // more jobs exist: the budget ended the walk
  });

  it("keeps a body's own per-page max_credits when it is lower than what is left", async () => {
    const { client, fake } = clientOn(cappedServer());
    const jobs = await collect(client.jobs.searchAll({ waterfall: { max_credits: 2 }, limit: 3 }, { maxCredits: 5 }));
    expect(fake.sent.map((s) => (s.body as { waterfall: { max_credits: number } }).waterfall.max_credits)).toEqual([
      2, 2, 1,
    ]);
    expect(jobs).toHaveLength(5);
  });

  it(
    'ends at the last page when the budget is not reached, and ' + 'refuses a budget that is not a whole number',
    async () => {
      const { client, fake } = clientOn(cappedServer(2));
      expect(await collect(client.jobs.searchAll({ limit: 3 }, { maxCredits: 100 }))).toHaveLength(6);
      expect(fake.sent).toHaveLength(2);
      expect(() => client.jobs.searchPages({}, { maxCredits: -1 })).toThrow(RangeError);
      expect(() => client.jobs.searchPages({}, { maxCredits: 1.5 })).toThrow(RangeError);
    },
  );

  it('with a budget of 0 asks one page that may charge nothing (jobs already paid for only)', async () => {
    const { client, fake } = clientOn(cappedServer());
    expect(await collect(client.jobs.searchAll({ limit: 3 }, { maxCredits: 0 }))).toEqual([]);
    expect(fake.sent.map((s) => (s.body as { waterfall: { max_credits: number } }).waterfall.max_credits)).toEqual([0]);
  });
});

describe('webhook endpoints', () => {
  it('lists page by page, reads a secret and rotates with an overlap', async () => {
    const { client, fake } = clientOn((sent) => {
      if (sent.method === 'GET') {
        const cursor = new URL(sent.url).searchParams.get('cursor');
        return answer(
          200,
          cursor
            ? { data: [{ url: 'https://b.example/h' }], next_cursor: null }
            : { data: [{ url: 'https://a.example/h' }], next_cursor: 'cur_e1' },
        );
      }
      return answer(200, {
        url: (sent.body as { url: string }).url,
        secret: 'whsec_x',
        created_at: '2026-11-28T12:00:00.000Z',
      });
    });
    expect((await collect(client.webhookEndpoints.iterate())).map((e) => e.url)).toEqual([
      'https://a.example/h',
      'https://b.example/h',
    ]);
    expect((await client.webhookEndpoints.secret('https://a.example/h')).secret).toBe('whsec_x');
    await client.webhookEndpoints.rotate('https://a.example/h', { previousExpiresInSeconds: 60 });
    await client.webhookEndpoints.rotate('https://a.example/h');
    expect(fake.sent.map((s) => [s.method, new URL(s.url).pathname + new URL(s.url).search, s.body])).toEqual([
      ['GET', '/v1/webhook_endpoints', undefined],
      ['GET', '/v1/webhook_endpoints?cursor=cur_e1', undefined],
      ['POST', '/v1/webhook_endpoints/secret', { url: 'https://a.example/h' }],
      ['POST', '/v1/webhook_endpoints/secret/rotate', { url: 'https://a.example/h', previous_expires_in_seconds: 60 }],
      ['POST', '/v1/webhook_endpoints/secret/rotate', { url: 'https://a.example/h' }],
    ]);
    // POSTs carry an Idempotency-Key, so a retried rotation answers the same secret
    expect(
      fake.sent.filter((s) => s.method === 'POST').every((s) => typeof s.headers['idempotency-key'] === 'string'),
    ).toBe(true);
  });
});

describe('GET pagers', () => {
  it('walks the ledger with cursor and job_id in the query', async () => {
    const { client, fake } = clientOn((sent) => {
      const cursor = new URL(sent.url).searchParams.get('cursor');
      return answer(
        200,
        cursor ? { data: [{ id: 'led_2' }], next_cursor: null } : { data: [{ id: 'led_1' }], next_cursor: 'cur_l1' },
      );
    });
    const entries = await collect(client.ledger.iterate({ job_id: 'job_9' }));
    expect(entries.map((e) => e.id)).toEqual(['led_1', 'led_2']);
    expect(fake.sent.map((s) => s.url)).toEqual([
      'http://api.test/v1/billing/ledger?job_id=job_9',
      'http://api.test/v1/billing/ledger?job_id=job_9&cursor=cur_l1',
    ]);
  });

  it('walks the watches', async () => {
    const { client, fake } = clientOn((sent) => {
      const cursor = new URL(sent.url).searchParams.get('cursor');
      return answer(
        200,
        cursor ? { data: [{ id: 'wat_2' }], next_cursor: null } : { data: [{ id: 'wat_1' }], next_cursor: 'cur_w1' },
      );
    });
    expect((await collect(client.watches.iterate())).map((w) => w.id)).toEqual(['wat_1', 'wat_2']);
    expect(fake.sent.map((s) => new URL(s.url).search)).toEqual(['', '?cursor=cur_w1']);
  });

  it('walks the event feed with since, to the empty page that ends it', async () => {
    const feed = ['evt_1', 'evt_2', 'evt_3'];
    const { client, fake } = clientOn((sent) => {
      const params = new URL(sent.url).searchParams;
      const after = params.get('since') ? Number(params.get('since')!.slice(4)) : 0;
      const limit = Number(params.get('limit') ?? 100);
      const data = feed.slice(after, after + limit).map((id) => ({ id }));
      return answer(200, { data, next_cursor: data.length ? `cur_${after + data.length}` : null });
    });
    const pages = await collect(client.events.pages({ limit: 2 }));
    expect(pages.map((p) => [p.data.map((e) => e.id), p.next_cursor])).toEqual([
      [['evt_1', 'evt_2'], 'cur_2'],
      [['evt_3'], 'cur_3'],
      [[], null],
    ]);
    fake.sent.length = 0;
    expect((await collect(client.events.iterate({ since: 'cur_1' }))).map((e) => e.id)).toEqual(['evt_2', 'evt_3']);
    expect(fake.sent.map((s) => new URL(s.url).search)).toEqual(['?since=cur_1', '?since=cur_3']);
  });
});

describe('async search results', () => {
  it('polls until the search is finished, then pages its results from the first page read', async () => {
    const statuses = ['queued', 'running', 'completed'];
    const { client, fake, waits } = clientOn((sent) => {
      const cursor = new URL(sent.url).searchParams.get('cursor');
      if (cursor) return answer(200, { id: 'srch_1', status: 'completed', data: [job('job_3')], next_cursor: null });
      const status = statuses.shift() ?? 'completed';
      return answer(200, {
        id: 'srch_1',
        status,
        data: status === 'completed' ? [job('job_1'), job('job_2')] : [],
        next_cursor: status === 'completed' ? 'cur_s1' : null,
      });
    });
    const jobs = await collect(client.searches.results('srch_1', { limit: 2, pollIntervalMs: 5 }));
    expect(jobs.map((j) => j.id)).toEqual(['job_1', 'job_2', 'job_3']);
    expect(waits).toEqual([5, 5]);
    expect(fake.sent.map((s) => new URL(s.url).search)).toEqual([
      '?limit=2',
      '?limit=2',
      '?limit=2',
      '?cursor=cur_s1&limit=2',
    ]);
  });

  it('throws on a failed search (not an empty walk), and reads what is there now with wait: false', async () => {
    const { client } = clientOn(() => answer(200, { id: 'srch_1', status: 'failed', data: [], next_cursor: null }));
    const failed = await collect(client.searches.results('srch_1')).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(AsyncSearchFailedError);
    expect(failed).toMatchObject({ search: { id: 'srch_1', status: 'failed' } });
    expect((await collect(client.searches.resultPages('srch_1'))).map((page) => page.status)).toEqual(['failed']);
    const { client: other, fake } = clientOn(() =>
      answer(200, { id: 'srch_2', status: 'running', data: [], next_cursor: null }),
    );
    expect(await collect(other.searches.results('srch_2', { wait: false }))).toEqual([]);
    expect(fake.sent).toHaveLength(1);
  });

  it('gives up waiting after timeoutMs', async () => {
    const { client: patient, fake } = clientOn(() =>
      answer(200, { id: 'srch_1', status: 'on_hold', data: [], next_cursor: null }),
    );
    await expect(patient.searches.waitUntilDone('srch_1', { pollIntervalMs: 1_000, timeoutMs: 2_500 })).rejects.toThrow(
      'still on_hold',
    );
    expect(fake.sent).toHaveLength(3);
  });
});

describe('walkPages', () => {
  it('refuses to loop on a cursor the API answers back', async () => {
    const pages = walkPages(async () => ({ next_cursor: 'cur_same' }), 'cur_same');
    await expect(collect(pages)).rejects.toThrow('paging stopped');
  });
});
