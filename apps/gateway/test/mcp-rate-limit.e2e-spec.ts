import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { api, createAccount, stack } from './stack.js';

/**
 * MCP in the account's rate limit: every JSON-RPC message counts once in the same bucket as the
 * API's requests, alone or in a batch (a batch all or none), a tool call once (its API request
 * is not counted again), and a POST past the limit is answered as the API answers: 429,
 * `Retry-After`, the RateLimit-* headers and the error envelope. Outcomes are counted; no
 * duration is asserted.
 */
const MCP_HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

interface Answer {
  status: number;
  headers: Headers;
  body: unknown;
}

async function mcp(key: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${stack.baseUrl}/mcp`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...MCP_HEADERS },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

const toolsList = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/list' });
const batchOf = (n: number, first = 1) => Array.from({ length: n }, (_, i) => toolsList(first + i));
const getAccountCall = (id: number) => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name: 'get_account', arguments: {} },
});
const initialize = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'rate-limit-e2e', version: '0' } },
};

const intHeader = (headers: Headers, name: string): number => {
  const value = headers.get(name);
  expect({ name, value }).toEqual({ name, value: expect.stringMatching(/^\d+$/) });
  return Number(value);
};

/** 429 `rate_limited` in the public envelope, with an integer Retry-After and the RateLimit-* headers. */
function expectRateLimited(answer: Answer, limit: number, remaining: number): void {
  expect(answer.status).toBe(429);
  const envelope = ErrorEnvelopeSchema.parse(answer.body);
  expect(envelope.error).toMatchObject({ code: 'rate_limited', type: 'rate_limit_error' });
  expect(envelope.error.request_id).toBe(answer.headers.get('x-request-id'));
  const retryAfter = intHeader(answer.headers, 'retry-after');
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
  expect(intHeader(answer.headers, 'ratelimit-limit')).toBe(limit);
  expect(intHeader(answer.headers, 'ratelimit-remaining')).toBe(remaining);
  expect(intHeader(answer.headers, 'ratelimit-reset')).toBe(retryAfter);
}

/** How many answers had each status. */
function tally(answers: Answer[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe('MCP messages in the account’s rate limit', () => {
  it('answers 429 with Retry-After to an account already limited on the API, alone and in a batch', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 5, window_seconds: 60 },
    });
    const rest: number[] = [];
    for (let i = 0; i < 6; i++) rest.push((await api('/v1/account', { key: live_key })).status);
    expect(rest).toEqual([200, 200, 200, 200, 200, 429]);

    expectRateLimited(await mcp(live_key, toolsList(1)), 5, 0);
    expectRateLimited(await mcp(live_key, initialize), 5, 0);
    expectRateLimited(await mcp(live_key, batchOf(3)), 5, 0);
    expectRateLimited(await mcp(live_key, getAccountCall(1)), 5, 0);
    // many at once: not one answered
    const burst = await Promise.all(
      Array.from({ length: 12 }, (_, i) => mcp(live_key, i % 2 ? toolsList(i) : batchOf(4))),
    );
    expect(tally(burst)).toEqual({ 429: 12 });
  });

  it('counts each message once, a batch by its size and all or none', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 6, window_seconds: 60 },
    });
    const single = await mcp(live_key, toolsList(1));
    expect(single.status).toBe(200);
    expect(intHeader(single.headers, 'ratelimit-remaining')).toBe(5);

    const three = await mcp(live_key, batchOf(3));
    expect(three.status).toBe(200);
    expect((three.body as unknown[]).map((answer) => (answer as { id: number }).id)).toEqual([1, 2, 3]);
    expect(intHeader(three.headers, 'ratelimit-remaining')).toBe(2);

    // three more do not fit in the two left: refused whole, and nothing of it counted
    const refused = await mcp(live_key, batchOf(3));
    expectRateLimited(refused, 6, 2);
    expect(ErrorEnvelopeSchema.parse(refused.body).error.message).toMatch(/2 left in this window/);

    const two = await mcp(live_key, batchOf(2));
    expect(two.status).toBe(200);
    expect(intHeader(two.headers, 'ratelimit-remaining')).toBe(0);
    expect((await api('/v1/account', { key: live_key })).status).toBe(429);
  });

  it('takes racing batches whole: exactly those that fit, then a single message in the room left', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 10, window_seconds: 60 },
    });
    const batches = await Promise.all(Array.from({ length: 8 }, () => mcp(live_key, batchOf(3))));
    expect(tally(batches)).toEqual({ 200: 3, 429: 5 });
    for (const answer of batches.filter((a) => a.status === 429)) expectRateLimited(answer, 10, 1);
    const last = await mcp(live_key, toolsList(1));
    expect(last.status).toBe(200);
    expect(intHeader(last.headers, 'ratelimit-remaining')).toBe(0);
  });

  it('counts a tool call once: its API request is not counted again', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 20, window_seconds: 60 },
    });
    const call = await mcp(live_key, getAccountCall(1));
    expect(call.status).toBe(200);
    const result = (call.body as { result: { isError?: boolean; structuredContent?: Record<string, unknown> } }).result;
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ rate_limit: { limit: 20, window_seconds: 60 } });
    expect(intHeader(call.headers, 'ratelimit-remaining')).toBe(19);
    // the API's own count after it: one request for the call, one for this read
    expect(intHeader((await api('/v1/account', { key: live_key })).headers, 'ratelimit-remaining')).toBe(18);

    const two = await mcp(live_key, [getAccountCall(1), getAccountCall(2)]);
    expect(two.status).toBe(200);
    expect((two.body as Array<{ result: { isError?: boolean } }>).map((a) => a.result.isError ?? false)).toEqual([
      false,
      false,
    ]);
    expect(intHeader(two.headers, 'ratelimit-remaining')).toBe(16);
    expect(intHeader((await api('/v1/account', { key: live_key })).headers, 'ratelimit-remaining')).toBe(15);
  });

  it('refuses a batch past the bound, and one larger than the whole limit, with 400 that says the bound', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 3, window_seconds: 60 },
    });
    const tooLong = await mcp(live_key, batchOf(11));
    expect(tooLong.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(tooLong.body).error).toMatchObject({ code: 'invalid_request', param: 'body' });
    expect(ErrorEnvelopeSchema.parse(tooLong.body).error.message).toMatch(/at most 10 JSON-RPC messages/);

    const overLimit = await mcp(live_key, batchOf(4));
    expect(overLimit.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(overLimit.body).error.message).toMatch(/at most 3 per POST/);
    // the refused batch of 11 counted as one request, the one over the whole limit as none
    const next = await mcp(live_key, toolsList(1));
    expect(next.status).toBe(200);
    expect(intHeader(next.headers, 'ratelimit-remaining')).toBe(1);
  });

  it('answers a burst of batches from its account’s line: each POST answered or refused with Retry-After', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 1_000_000, window_seconds: 60 },
    });
    const burst = await Promise.all(Array.from({ length: 48 }, (_, i) => mcp(live_key, batchOf(10, i * 10))));
    const counts = tally(burst);
    expect(Object.keys(counts).every((status) => status === '200' || status === '429')).toBe(true);
    expect(counts[200]).toBeGreaterThan(0);
    for (const answer of burst.filter((a) => a.status === 429)) {
      expect(ErrorEnvelopeSchema.parse(answer.body).error.code).toBe('rate_limited');
      expect(intHeader(answer.headers, 'retry-after')).toBeGreaterThanOrEqual(1);
    }
    for (const answer of burst.filter((a) => a.status === 200)) {
      const answers = answer.body as Array<{ result: { tools: unknown[] } }>;
      expect(answers).toHaveLength(10);
      expect(answers.every((a) => a.result.tools.length > 0)).toBe(true);
    }
    process.stdout.write(`mcp-rate-limit: a burst of 48 batches of 10: ${JSON.stringify(counts)}\n`);
  });

  it('refuses a batch that cancels its own request at once, and the account’s line stays free', async () => {
    const { live_key } = await createAccount({
      plan: 'pro',
      credits: 10,
      rate_limit: { limit: 1_000_000, window_seconds: 60 },
    });
    const cancel = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } };
    // more than the line holds: a POST left waiting on a cancelled answer would keep its place for good
    const refused = await Promise.all(
      Array.from({ length: 12 }, () => mcp(live_key, [{ jsonrpc: '2.0', id: 1, method: 'ping' }, cancel])),
    );
    for (const answer of refused) {
      expect(answer.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(answer.body).error.message).toMatch(/^A batch cannot cancel its own requests/);
    }
    const after = await mcp(live_key, batchOf(10));
    expect(after.status).toBe(200);
    expect(after.body).toHaveLength(10);
    // alone, a cancellation is acknowledged and names nothing
    expect((await mcp(live_key, cancel)).status).toBe(202);
  });
});
