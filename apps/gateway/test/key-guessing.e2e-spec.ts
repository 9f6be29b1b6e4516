import { randomBytes } from 'node:crypto';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { fromAddress } from './client-address.js';
import { createAccount } from './stack.js';

/**
 * A client trying key after key: each well-formed key the service does not know costs a lookup
 * in the database every account's requests share, so an address is allowed 60 of them a minute
 * (API_KEY_LOOKUP_RATE_LIMIT) and then refused 429 before any lookup, over REST and MCP alike,
 * while other addresses and the guesser's own keys already known to the caches are served.
 */
const LIMIT = 60;
const guessedKey = () => `svc_live_${randomBytes(16).toString('hex')}`;
const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

describe('guessing API keys', () => {
  it('refuses an address its unknown keys past the limit with 429 and Retry-After, and only that address', async () => {
    // addresses of this run's own (all of 127/8 is loopback): a run again within the minute starts afresh
    const net = `127.${71 + Math.floor(Math.random() * 100)}.${Math.floor(Math.random() * 250)}`;
    const guesser = fromAddress(`${net}.1`);
    const neighbour = fromAddress(`${net}.2`);
    const account = await createAccount({ plan: 'pro', credits: 10 });
    // the guesser's own real key, known to the caches before it starts guessing
    expect((await guesser('/v1/account', { headers: bearer(account.live_key) })).status).toBe(200);

    // the limit's last unknown key is looked up (401), as is the one that finds the window full
    for (let i = 0; i <= LIMIT; i++) {
      const answer = await guesser('/v1/account', { headers: bearer(guessedKey()) });
      expect(answer.status).toBe(401);
    }
    const refused = await guesser('/v1/account', { headers: bearer(guessedKey()) });
    expect(refused.status).toBe(429);
    expect(ErrorEnvelopeSchema.parse(refused.body).error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const overMcp = await guesser('/mcp', {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      headers: { ...bearer(guessedKey()), accept: 'application/json, text/event-stream' },
    });
    expect(overMcp.status).toBe(429);

    // a key the caches know is served from the same address; another address is not refused
    expect((await guesser('/v1/account', { headers: bearer(account.live_key) })).status).toBe(200);
    expect((await neighbour('/v1/account', { headers: bearer(guessedKey()) })).status).toBe(401);
    const other = await createAccount({ plan: 'pro', credits: 10 });
    expect((await neighbour('/v1/account', { headers: bearer(other.live_key) })).status).toBe(200);
  }, 60_000);
});
