import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createGzip } from 'node:zlib';
import { BoardReadError, BoardReader, retryAfterMs, type BoardReadRequest } from './board-reader.js';
import { boardFixture } from './board-fixture.spec-helper.js';

const lever = boardFixture<unknown[]>('lever.json');

interface Asked {
  url: string;
  headers: Record<string, string>;
  signal: AbortSignal;
}

/** A fetch that answers from `respond` and records what was asked. */
function fakeFetch(respond: (asked: Asked) => Response | Promise<Response>) {
  const asked: Asked[] = [];
  const fn = (async (url: URL, init: RequestInit) => {
    const a = { url: url.toString(), headers: init.headers as Record<string, string>, signal: init.signal! };
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
  maxWaitMs: 60_000,
  callTimeoutMs: 30_000,
  ...over,
});

/** Answers `response` after `ms`, or fails as fetch does when the request's signal aborts first. */
const answerAfter = (ms: number, response: () => Response) => (a: Asked) =>
  new Promise<Response>((resolve, reject) => {
    const timer = setTimeout(() => resolve(response()), ms);
    a.signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new DOMException('aborted', 'AbortError'));
    });
  });

/** A body that never ends, in 64 KB chunks, and whether its reader cancelled it. */
function endlessBody() {
  const state = { cancelled: false, sent: 0 };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.sent += 65_536;
      controller.enqueue(new Uint8Array(65_536).fill(0x20));
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

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
    // the other board was not asked: its failure is the host's back-off, not its own answer
    await expect(reader.read(request({ board: 'other' }))).rejects.toMatchObject({ kind: 'host_backoff' });
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
    const silent = fakeFetch(answerAfter(60_000, () => json(lever)));
    await expect(new BoardReader({ fetch: silent.fn }).read(request({ callTimeoutMs: 20 }))).rejects.toMatchObject({
      kind: 'timeout',
    });
  });

  it('fails an answer in the ATS format none of whose items reads as an opening (a renamed field)', async () => {
    const renamed = { jobs: [1, 2, 3].map((id) => ({ id, name: `Role ${id}`, absolute_url: `https://x.test/${id}` })) };
    const { fn } = fakeFetch(() => json(renamed));
    const read = new BoardReader({ fetch: fn }).read(request({ ats: 'greenhouse' }));
    await expect(read).rejects.toMatchObject({
      kind: 'unreadable',
      message: expect.stringMatching(/none of .* 3 items/),
    });
    // some items skipped beside readable ones: a changed board that says how many it skipped
    const partly = fakeFetch(() => json(lever));
    const result = await new BoardReader({ fetch: partly.fn }).read(request());
    expect(result.changed && result.jobs.skipped).toBe(1);
  });

  it('drops a body past maxBodyBytes as it streams, without content-length, and cancels it', async () => {
    const { stream, state } = endlessBody();
    const { fn } = fakeFetch(() => new Response(stream, { status: 200 }));
    const read = new BoardReader({ fetch: fn, maxBodyBytes: 1_000_000 }).read(request());
    await expect(read).rejects.toMatchObject({ kind: 'too_large', message: expect.stringMatching(/too large/) });
    expect(state.cancelled).toBe(true);
    expect(state.sent).toBeLessThan(2_000_000);
  });

  it('counts the inflated bytes of a compressed chunked answer and aborts its request', async () => {
    let closed!: () => void;
    const requestClosed = new Promise<void>((resolve) => (closed = resolve));
    // a gzip bomb: a few KB on the wire per MB of spaces, with no end and no content-length
    const server: Server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      const gzip = createGzip();
      gzip.pipe(res);
      const spaces = Buffer.alloc(1_048_576, 0x20);
      const push = () => {
        while (!res.destroyed && gzip.write(spaces));
        if (!res.destroyed) gzip.once('drain', push);
      };
      res.on('close', () => {
        gzip.destroy();
        closed();
      });
      push();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const reader = new BoardReader({ maxBodyBytes: 4_000_000 });
      const read = reader.read(request({ baseUrl: `http://127.0.0.1:${port}`, callTimeoutMs: 10_000 }));
      await expect(read).rejects.toMatchObject({ kind: 'too_large' });
      await requestClosed;
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("starts a read's call deadline once it holds its host's slot, not while it waits for one", async () => {
    // each answer takes 150 ms of a 250 ms deadline; the second read waits 150 ms for the first's slot
    const { fn, asked } = fakeFetch(answerAfter(150, () => json(lever)));
    const reader = new BoardReader({ fetch: fn, perHostConcurrency: 1 });
    const reads = await Promise.allSettled([
      reader.read(request({ board: 'a', callTimeoutMs: 250 })),
      reader.read(request({ board: 'b', callTimeoutMs: 250 })),
    ]);
    expect(reads.map((r) => r.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(asked).toHaveLength(2);
  });

  it('fails a read that waited past maxWaitMs for its host as queued, without asking the board', async () => {
    const { fn, asked } = fakeFetch(answerAfter(200, () => json(lever)));
    const reader = new BoardReader({ fetch: fn, perHostConcurrency: 1 });
    const first = reader.read(request({ board: 'a' }));
    await expect(reader.read(request({ board: 'b', maxWaitMs: 20 }))).rejects.toMatchObject({ kind: 'queued' });
    expect(asked.map((a) => a.url)).toEqual(['http://ats.test/v0/postings/a?mode=json']);
    await first;
  });

  it('does not ask a host that answered 429 while the read waited for its slot', async () => {
    const { fn, asked } = fakeFetch(answerAfter(20, () => new Response(null, { status: 429 })));
    const reader = new BoardReader({ fetch: fn, perHostConcurrency: 1 });
    const reads = await Promise.allSettled([
      reader.read(request({ board: 'a' })),
      reader.read(request({ board: 'b' })),
    ]);
    expect(reads.map((r) => r.status === 'rejected' && (r.reason as BoardReadError).kind)).toEqual([
      'rate_limited',
      'host_backoff',
    ]);
    expect(asked).toHaveLength(1);
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
