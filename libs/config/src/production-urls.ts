import { isIP } from 'node:net';
import { isLoopbackHost } from './production-secrets.js';

/**
 * Addresses a service hands to customers (in answers, not for its own connections). A service
 * "reads" one when its config schema declares it; only those are checked, and only when set: the
 * development default of each is a page of the service itself.
 */
export const PUBLIC_URL_SETTINGS: readonly string[] = ['PUBLIC_PRICING_URL'];

/** Names no real site can have (RFC 2606, RFC 6761): a link there is a placeholder left in. */
const RESERVED_DOMAINS = ['example', 'test', 'invalid', 'localhost', 'example.com', 'example.net', 'example.org'];

function isReservedHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return RESERVED_DOMAINS.some((domain) => name === domain || name.endsWith(`.${domain}`));
}

function isPrivateAddress(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  if (isIP(bare) === 4) return /^(10\.|192\.168\.|172\.(1[6-9]|2\d|3[01])\.|169\.254\.|0\.)/.test(bare);
  if (isIP(bare) === 6) return /^(f[cd]|fe80)/i.test(bare);
  return false;
}

/**
 * The problems of the public addresses a service reads, in production: each must be an https
 * address customers can reach, not a placeholder (`.example`), loopback or private address.
 * One line each, naming the variable.
 */
export function publicUrlProblems(
  declared: ReadonlySet<string>,
  raw: Record<string, string | undefined>,
  settings: readonly string[] = PUBLIC_URL_SETTINGS,
): string[] {
  const problems: string[] = [];
  for (const name of settings) {
    const value = raw[name];
    if (!declared.has(name) || value === undefined || value === '') continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue; // the schema already refused it
    }
    if (url.protocol !== 'https:') problems.push(`${name}: customers follow it in production: use an https address`);
    else if (isReservedHost(url.hostname) || isLoopbackHost(url.hostname) || isPrivateAddress(url.hostname)) {
      problems.push(
        `${name}: points at ${url.hostname}, which customers cannot reach; set the address of your pricing page`,
      );
    }
  }
  return problems;
}
