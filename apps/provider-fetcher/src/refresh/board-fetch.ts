import { isIP } from 'node:net';
import { Agent, fetch as undiciFetch } from 'undici';
import { classifyAddress, hostOf, safeLookup } from '@jobs/webhook-targets';

/**
 * The own crawler's `fetch`: a board's host was checked when the board was registered, but its DNS
 * answer may change later to a loopback or private address (rebinding), which would point the
 * crawler at our own network. Unless private addresses are allowed (`WEBHOOK_ALLOW_PRIVATE`, the
 * same rule as a registration's `base_url`), each new connection resolves through `safeLookup`,
 * which refuses a non-public answer, and an address written in the URL must be public itself.
 * Redirects stay the reader's business (never followed).
 */
export function boardFetch(allowPrivate: boolean): typeof fetch {
  const agent = new Agent({ connect: { lookup: safeLookup(allowPrivate) as never } });
  return ((input: string | URL, init?: RequestInit) => {
    const host = hostOf(new URL(String(input)));
    if (!allowPrivate && isIP(host) && classifyAddress(host) !== 'public')
      return Promise.reject(new Error(`${host} is not a public address`));
    return undiciFetch(input, { ...(init as object), dispatcher: agent });
  }) as unknown as typeof fetch;
}
