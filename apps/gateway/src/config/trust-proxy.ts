import { isIP } from 'node:net';
import { z } from 'zod';

/** What Fastify's `trustProxy` is given: nothing trusted, or the proxies' addresses. */
export type TrustedProxies = false | string[];

/** proxy-addr's names for address ranges (Fastify resolves them). */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isAddressOrCidr(entry: string): boolean {
  if (RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d{1,3}$/.test(bits) && prefix <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY: which proxies in front of the gateway may name the client's address
 * (X-Forwarded-For), which the per-address rate limits key on. Unset or `false`: none, the
 * address is the TCP peer's. Otherwise a comma-separated list of the proxies' addresses, CIDR
 * ranges or proxy-addr's `loopback`, `linklocal`, `uniquelocal`. `true` (trust every hop) is
 * refused, since a client could then name any address it likes; so is a hop count, which Fastify
 * ignores (it cannot tell a proxy from a client that sends enough X-Forwarded-For entries).
 */
export const TrustProxySchema = z
  .string()
  .trim()
  .default('false')
  .transform((value, ctx): TrustedProxies => {
    if (value === '' || value === 'false') return false;
    const entries = value
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (entries.length === 0 || bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: 'expected false or a comma-separated list of proxy addresses or CIDR ranges (true is not accepted)',
      });
      return z.NEVER;
    }
    return entries;
  });
