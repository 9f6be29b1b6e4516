import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Principal } from '../auth/api-key.js';
import type { GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { sendCounted } from './counted-requests.js';
import { RateLimitGate } from './rate-limit.gate.js';
import type { RateLimiter } from './rate-limiter.js';
import type { RateDecision } from './rate-window.js';

const account: Principal = {
  accountId: 'acc_1',
  mode: 'live',
  keyHash: 'hash',
  plan: 'pro',
  rateLimit: 5,
  rateLimitWindowSeconds: 60,
  pinnedVersion: '2026-10-01',
};

/** A limiter answering `decision`, every call recorded. */
function gate(decision: RateDecision | null) {
  const calls: Array<{ bucket: string; limit: number; weight: number | undefined }> = [];
  const limiter = {
    hit: async (bucket: string, limit: number, _windowSeconds: number, weight?: number) => {
      calls.push({ bucket, limit, weight });
      return decision;
    },
  } as unknown as RateLimiter;
  const headers: Record<string, string> = {};
  const reply = {
    header: (name: string, value: string) => {
      headers[name] = value;
      return reply;
    },
  } as unknown as FastifyReply;
  return { gate: new RateLimitGate(limiter, {} as GatewayConfig), calls, headers, reply };
}

describe('RateLimitGate', () => {
  it('counts an MCP batch in the account’s bucket by its size, with the RateLimit headers', async () => {
    const {
      gate: rateLimit,
      calls,
      headers,
      reply,
    } = gate({ allowed: true, limit: 5, remaining: 1, resetSeconds: 40 });
    await rateLimit.countBatch(account, reply, 4);
    expect(calls).toEqual([{ bucket: 'account:acc_1', limit: 5, weight: 4 }]);
    expect(headers).toEqual({ 'RateLimit-Limit': '5', 'RateLimit-Remaining': '1', 'RateLimit-Reset': '40' });
  });

  it('refuses a batch that does not fit in what is left with 429, Retry-After and the room it left', async () => {
    const { gate: rateLimit, headers, reply } = gate({ allowed: false, limit: 5, remaining: 2, resetSeconds: 17 });
    const refusal = rateLimit.countBatch(account, reply, 3);
    await expect(refusal).rejects.toMatchObject({ code: 'rate_limited' });
    await expect(refusal).rejects.toThrow(/2 left in this window, fewer than the 3 messages of this batch.*17 s/);
    expect(headers).toMatchObject({ 'RateLimit-Remaining': '2', 'Retry-After': '17' });
  });

  it('refuses a batch larger than the whole limit with 400, which no wait would cure, counting nothing', async () => {
    const { gate: rateLimit, calls, reply } = gate({ allowed: true, limit: 5, remaining: 0, resetSeconds: 1 });
    const refusal = rateLimit.countBatch(account, reply, 6);
    await expect(refusal).rejects.toBeInstanceOf(ApiError);
    await expect(refusal).rejects.toMatchObject({ code: 'invalid_request', extras: { param: 'body' } });
    await expect(refusal).rejects.toThrow(/at most 5 per POST/);
    expect(calls).toEqual([]);
  });

  it('lets a batch through without headers when the counter is away (fail open)', async () => {
    const { gate: rateLimit, headers, reply } = gate(null);
    await rateLimit.countBatch(account, reply, 3);
    expect(headers).toEqual({});
  });

  it('does not count again the API request of a tool call its MCP POST counted', async () => {
    const { gate: rateLimit, calls, reply } = gate({ allowed: true, limit: 5, remaining: 4, resetSeconds: 60 });
    const request = { principal: account } as unknown as FastifyRequest;
    await sendCounted(() => rateLimit.pass(request, reply, undefined));
    expect(calls).toEqual([]);
    await rateLimit.pass(request, reply, undefined);
    expect(calls).toEqual([{ bucket: 'account:acc_1', limit: 5, weight: 1 }]);
  });
});

describe('RateLimitGate.keyLookups', () => {
  const request = (ip: string) => ({ ip }) as FastifyRequest;

  it("counts an address's unknown keys; past its limit refuses its next lookups 429 to the window end", async () => {
    let allowed = true;
    const calls: string[] = [];
    const limiter = {
      hit: async (bucket: string, limit: number) => {
        calls.push(`${bucket}/${limit}`);
        return { allowed, limit, remaining: allowed ? 1 : 0, resetSeconds: 30 };
      },
    } as unknown as RateLimiter;
    const headers: Record<string, string> = {};
    const reply = {
      header: (name: string, value: string) => void (headers[name] = value),
    } as unknown as FastifyReply;
    const rateLimit = new RateLimitGate(limiter, { API_KEY_LOOKUP_RATE_LIMIT: 2 } as GatewayConfig);

    const guesser = rateLimit.keyLookups(request('203.0.113.9'), reply);
    guesser.before();
    await guesser.unknown();
    allowed = false;
    await guesser.unknown();
    expect(calls).toEqual(['unknown-keys:203.0.113.9/2', 'unknown-keys:203.0.113.9/2']);

    const next = rateLimit.keyLookups(request('203.0.113.9'), reply);
    expect(() => next.before()).toThrow(ApiError);
    expect(() => next.before()).toThrow(/More than 2 API keys .* Retry after 30 s/);
    expect(headers).toMatchObject({ 'Retry-After': '30', 'RateLimit-Remaining': '0' });
    // another address is not refused, and nothing is counted for a key it has not looked up yet
    expect(() => rateLimit.keyLookups(request('203.0.113.10'), reply).before()).not.toThrow();
    expect(calls).toHaveLength(2);
  });
});
