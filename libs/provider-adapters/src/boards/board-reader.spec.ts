import { BoardReadError, BoardReader, retryAfterMs, type BoardReadRequest } from './board-reader.js';
import { boardFixture } from './board-fixture.spec-helper.js';

const lever = boardFixture<unknown[]>('lever.json');

interface Asked {
  url: string;
  headers: Record<string, string>;
}

/** A fetch that answers from `respond` and records what was asked. */
function fakeFetch(respond: (asked: Asked) => Response | Promise<Response>) {
  const asked: Asked[] = [];
  const fn = (async (url: URL, init: RequestInit) => {
    const a = { url: url.toString(), headers: init.headers as Record<string, string> };
    asked.push(a);
    return respond(a);
  }) as unknown as typeof fetch;
  return { fn, asked };
}

const json = (body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', ...headers } });

const request = (over: Partial<BoardReadRequest> = {}): BoardReadRequest => ({
  ats: 'lever',
  board: 'leverdemo',
  baseUrl: 'http://ats.test',
  company: { name: 'Acme', domain: 'acme.com' },
  validators: null,
  signal: new AbortController().signal,
  ...over,
});

describe('BoardReader', () => {
  it('reads a board in one GET that names the service, and keeps its validators', async () => {
    const { fn, asked } = fakeFetch(() =>
      json(lever, { etag: '"v1"', 'last-modified': 'Sun, 22 Nov 2026 10:00:00 GMT' }),
    );
    const result = await new BoardReader({ fetch: fn, userAgent: 'jobs-test/1' }).read(request());
    expect(asked).toHaveLength(1);
    expect(asked[0]!.url).toBe('http://ats.test/v0/postings/leverdemo?mode=json');
    expect(asked[0]!.headers['user-agent']).toBe('jobs-test/1');
    expect(result.changed).toBe(true);
    if (!result.changed) return;
    expect(result.jobs.records).toHaveLength(4);
    expect(result.validators).toMatchObject({ etag: '"v1"', last_modified: 'Sun, 22 Nov 2026 10:00:00 GMT' });
    expect(result.validators.content_hash).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('asks conditionally the next time: a 304 is an unchanged board', async () => {
    const { fn, asked } = fakeFetch((a) =>
      a.headers['if-none-match'] === '"v1"' ? new Response(null, { status: 304 }) : json(lever),
    );
    const validators = { etag: '"v1"', last_modified: 'Sun, 22 Nov 2026 10:00:00 GMT', content_hash: 'x' };
    const result = await new BoardReader({ fetch: fn }).read(request({ validators }));
    expect(asked[0]!.headers['if-modified-since']).toBe('Sun, 22 Nov 2026 10:00:00 GMT');
    expect(result).toEqual({ changed: false, validators, status: 304 });
  });

  it('does not parse again an answer whose body did not change (an ATS without validators)', async () => {
    const { fn } = fakeFetch(() => json(lever));
    const reader = new BoardReader({ fetch: fn });
    const first = await reader.read(request());
    const second = await reader.read(request({ validators: first.validators }));
    expect(second.changed).toBe(false);
  });

  it('backs off a host that answered 429 until its Retry-After, without asking again', async () => {
    let now = 1_000_000;
    const { fn, asked } = fakeFetch(
      () => new Response('slow down', { status: 429, headers: { 'retry-after': '120' } }),
    );
    const reader = new BoardReader({ fetch: fn, now: () => now });
    await expect(reader.read(request())).rejects.toMatchObject({ kind: 'rate_limited', status: 429 });
    await expect(reader.read(request({ board: 'other' }))).rejects.toMatchObject({ kind: 'rate_limited' });
    expect(asked).toHaveLength(1);
    now += 121_000;
    await expect(reader.read(request())).rejects.toBeInstanceOf(BoardReadError);
    expect(asked).toHaveLength(2);
  });

  it('fails on error statuses, redirects, bodies that are not JSON and answers of another shape', async () => {
    const cases: Array<[Response, string]> = [
      [new Response('oops', { status: 500 }), 'status'],
      [new Response(null, { status: 404 }), 'status'],
      [new Response(null, { status: 302, headers: { location: 'http://10.0.0.1/' } }), 'status'],
      [new Response('<html>maintenance</html>', { status: 200 }), 'unreadable'],
      [json({ ok: false }), 'unreadable'],
    ];
    for (const [response, kind] of cases) {
      const { fn } = fakeFetch(() => response);
      await expect(new BoardReader({ fetch: fn }).read(request())).rejects.toMatchObject({ kind });
    }
  });

  it('tells a network failure from a call deadline', async () => {
    const down = fakeFetch(() => Promise.reject(new TypeError('fetch failed')));
    await expect(new BoardReader({ fetch: down.fn }).read(request())).rejects.toMatchObject({ kind: 'network' });
    const controller = new AbortController();
    const silent = fakeFetch(() => {
      controller.abort();
      return Promise.reject(new DOMException('aborted', 'AbortError'));
    });
    await expect(
      new BoardReader({ fetch: silent.fn }).read(request({ signal: controller.signal })),
    ).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('keeps at most perHostConcurrency requests in flight to one host, other hosts apart', async () => {
    let inFlight = 0;
    let most = 0;
    const { fn } = fakeFetch(async () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      return json([]);
    });
    const reader = new BoardReader({ fetch: fn, perHostConcurrency: 2 });
    await Promise.all(Array.from({ length: 8 }, (_, i) => reader.read(request({ board: `b${i}` }))));
    expect(most).toBe(2);
  });
});

describe('retryAfterMs', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-11-22T10:00:00Z');
    expect(retryAfterMs('30', now)).toBe(30_000);
    expect(retryAfterMs('Sun, 22 Nov 2026 10:01:00 GMT', now)).toBe(60_000);
    expect(retryAfterMs(null, now)).toBeNull();
    expect(retryAfterMs('soon', now)).toBeNull();
  });
});
