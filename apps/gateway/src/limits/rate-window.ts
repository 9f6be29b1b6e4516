/**
 * Fixed-window rate limiting, one counter per bucket (an account, or a client address). The
 * window opens with the bucket's first counted request and lasts `windowSeconds`. A request
 * weighs one; an MCP POST weighs the JSON-RPC messages it carries and is taken whole or not at
 * all. A request that does not fit in what is left of the window is refused and takes nothing,
 * so a refused batch leaves the room it found to smaller requests.
 *
 * Counting and opening the window happen in one Lua script, so concurrent requests on any gateway
 * replica never share the last slot. ARGV[1] is the window (ms); then, in arrival order, each
 * request's weight and its bucket's limit (BatchedHits: a replica's requests of one bucket in one
 * event-loop turn). The answer: the window's remaining ms, then per request the count after it
 * when taken, or minus the count it found when refused.
 */
export const TAKE_HITS_SCRIPT = `
local count = tonumber(redis.call('GET', KEYS[1]) or '0')
local taken = 0
local places = {}
for i = 2, #ARGV, 2 do
  local weight = tonumber(ARGV[i])
  if count + taken + weight <= tonumber(ARGV[i + 1]) then
    taken = taken + weight
    places[#places + 1] = count + taken
  else
    places[#places + 1] = -(count + taken)
  end
end
if taken > 0 then redis.call('INCRBY', KEYS[1], taken) end
local ttl = redis.call('PTTL', KEYS[1])
if ttl == -1 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
elseif ttl == -2 then
  ttl = tonumber(ARGV[1])
end
table.insert(places, 1, ttl)
return places
`;

/** One request's outcome in its bucket's window. */
export interface WindowPlace {
  allowed: boolean;
  /** The window's count after the request when allowed; the count it found when refused. */
  count: number;
  ttlMs: number;
}

export interface RateDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets (never 0 while a window is open). */
  resetSeconds: number;
}

/** The verdict for a request's place in a window of `limit` requests. */
export function decideRate(place: WindowPlace, limit: number): RateDecision {
  return {
    allowed: place.allowed,
    limit,
    remaining: Math.max(0, limit - place.count),
    resetSeconds: Math.max(1, Math.ceil(place.ttlMs / 1000)),
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
