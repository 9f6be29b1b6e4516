/**
 * WEBHOOK_ALLOW_PRIVATE (operator.md): when false, a webhook URL that is, or resolves to, a
 * loopback, private, link-local or unique-local address is refused: with 400 `invalid_request`
 * (`param: "webhook_url"`) when an async search or a watch is created, and again at delivery
 * time (the dispatcher connects through `safeLookup`, so the address checked is the address used,
 * and a DNS answer that changes after creation cannot reach an internal host).
 *
 * Host names resolve through a `HostResolver` (c-ares, with a timeout and a cache; never the
 * thread pool's `dns.lookup`); each service makes one from its configuration and passes it.
 *
 * Gateway use (POST /searches, POST /watches):
 *
 *   const verdict = await checkWebhookUrl(body.webhook_url, { allowPrivate: config.WEBHOOK_ALLOW_PRIVATE });
 *   if (!verdict.ok) throw new ApiError('invalid_request', verdict.reason, { param: 'webhook_url' });
 */
import type { LookupAddress } from 'node:dns';
import { isIP } from 'node:net';
import { classifyAddress } from './address-class.js';
import { HostResolver, isLocalhostName } from './host-resolver.js';

export interface WebhookUrlPolicy {
  /** WEBHOOK_ALLOW_PRIVATE */
  allowPrivate: boolean;
  /** Resolves a host name to its addresses: a service's `HostResolver`; default: one with the default bounds. */
  resolve?: (hostname: string) => Promise<string[]>;
}

/** `unresolved`: refused only because the host did not resolve now (it may later; every connection checks again). */
export type WebhookUrlVerdict = { ok: true } | { ok: false; reason: string; unresolved?: true };

/**
 * Longest webhook URL accepted, in UTF-8 bytes: it is part of the signing secret's key, whose index
 * takes at most 2,704 bytes a row (2,048 characters of CJK text are 6,000 bytes).
 */
export const WEBHOOK_URL_MAX_LENGTH = 2048;

/** Whether the URL is longer than a webhook URL may be (`WEBHOOK_URL_MAX_LENGTH` bytes). */
export function webhookUrlTooLong(url: string): boolean {
  return Buffer.byteLength(url, 'utf8') > WEBHOOK_URL_MAX_LENGTH;
}

/** Default bounds of a resolution: 2 s a query, 2 tries (a service passes its own from its configuration). */
export const DEFAULT_RESOLVER_OPTIONS = { timeoutMs: 2000, tries: 2 } as const;

let fallback: HostResolver | undefined;
/** The process's resolver for callers that pass none (one cache for all of them). */
export function defaultHostResolver(): HostResolver {
  fallback ??= new HostResolver(DEFAULT_RESOLVER_OPTIONS);
  return fallback;
}

/** Whether a webhook may be sent to `url` under `policy`; the reason is safe to show the caller. */
export async function checkWebhookUrl(url: string, policy: WebhookUrlPolicy): Promise<WebhookUrlVerdict> {
  if (webhookUrlTooLong(url))
    return { ok: false, reason: `webhook_url: at most ${WEBHOOK_URL_MAX_LENGTH} bytes (UTF-8).` };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'webhook_url: not an absolute URL.' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return { ok: false, reason: 'webhook_url: only http and https URLs receive webhooks.' };
  // a delivery goes to the origin and path: credentials would be dropped and every delivery refused
  if (parsed.username !== '' || parsed.password !== '')
    return {
      ok: false,
      reason: 'webhook_url: a user name or password in the URL is never sent; leave them out.',
    };
  if (policy.allowPrivate) return { ok: true };
  const host = hostOf(parsed);
  if (isIP(host)) return judge(host, [host]);
  if (isLocalhostName(host)) return refused(host);
  let addresses: string[];
  try {
    addresses = await (policy.resolve ?? ((name: string) => defaultHostResolver().resolve(name)))(host);
  } catch {
    addresses = [];
  }
  if (addresses.length === 0)
    return { ok: false, reason: `webhook_url: the host ${host} does not resolve.`, unresolved: true };
  return judge(host, addresses);
}

/** The URL's host without IPv6 brackets (the WHATWG parser already normalized `0x7f.1` forms). */
export function hostOf(url: URL): string {
  const host = url.hostname;
  return host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
}

function judge(host: string, addresses: string[]): WebhookUrlVerdict {
  return addresses.every((address) => classifyAddress(address) === 'public') ? { ok: true } : refused(host);
}

function refused(host: string): WebhookUrlVerdict {
  return {
    ok: false,
    reason:
      `webhook_url: ${host} is or resolves to a loopback, private ` +
      `or link-local address, which cannot receive webhooks.`,
  };
}

/** Raised by `safeLookup` when a host resolves to an address webhooks may not reach. */
export class UnsafeWebhookTargetError extends Error {
  readonly code = 'EUNSAFEWEBHOOKTARGET';
  constructor(readonly host: string) {
    super(`${host} resolves to a loopback, private or link-local address`);
    this.name = 'UnsafeWebhookTargetError';
  }
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for `http.request` / `net.connect` / undici's `connect` that resolves through
 * `resolver` (bounded, cached, off the thread pool) and refuses non-public addresses (unless
 * `allowPrivate`), so the connection goes only to an address that passed the check. IP literals
 * never reach a lookup: check them with `checkWebhookUrl` first.
 */
export function safeLookup(allowPrivate: boolean, resolver: HostResolver = defaultHostResolver()) {
  return (hostname: string, options: { family?: number | string; all?: boolean }, callback: LookupCallback): void => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : options.family;
    resolver.resolve(hostname).then(
      (found) => {
        const all = found.map((address) => ({ address, family: isIP(address) }));
        if (
          !allowPrivate &&
          (isLocalhostName(hostname) || all.some((entry) => classifyAddress(entry.address) !== 'public'))
        ) {
          return callback(new UnsafeWebhookTargetError(hostname) as NodeJS.ErrnoException, []);
        }
        const addresses = family === 4 || family === 6 ? all.filter((entry) => entry.family === family) : all;
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, []),
    );
  };
}
