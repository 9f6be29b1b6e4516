/**
 * Fixed-window rate limiting, one counter per bucket (an account, or a client address). The
 * window opens with the bucket's first request and lasts `windowSeconds`; every request in it
 * increments the counter. Counting and opening the window happen in one Lua script, so
 * concurrent requests on any gateway replica never both take the last slot. ARGV[2] requests
 * are counted at once (BatchedHits: a replica's requests of one bucket in one event-loop turn).
 */
export const FIXED_WINDOW_SCRIPT = `
local count = redis.call('INCRBY', KEYS[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}
`;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (never 0 while a window is open). */
  resetSeconds: number;
}

/** The verdict for the `count`-th request of a window that ends in `ttlMs`. */
export function decideRate(count: number, limit: number, ttlMs: number): RateDecision {
  return {
    allowed: count <= limit,
    limit,
    remaining: Math.max(0, limit - count),
    resetSeconds: Math.max(1, Math.ceil(ttlMs / 1000)),
  };
}

/** The response headers of a decision; `Retry-After` only on a refusal. */
export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  return {
    'RateLimit-Limit': String(decision.limit),
    'RateLimit-Remaining': String(decision.remaining),
    'RateLimit-Reset': String(decision.resetSeconds),
    ...(decision.allowed ? {} : { 'Retry-After': String(decision.resetSeconds) }),
  };
}
