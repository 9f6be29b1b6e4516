/**
 * Bounded resolution of webhook host names, for the check at creation (gateway) and every
 * connection of a delivery (webhook-dispatcher).
 *
 * - Off Node's shared thread pool: queries go through c-ares (`dns.promises.Resolver`), never
 *   `dns.lookup` (getaddrinfo on the libuv pool, which file, crypto and zlib work shares), so a few
 *   slow-resolving domains cannot stall the process's other I/O.
 * - Bounded: each query times out (`timeoutMs`, `tries` attempts), and the whole resolution has a
 *   hard deadline on top (`timeoutMs × tries` plus a margin) whatever the servers do.
 * - Cached: answers are kept for their DNS TTL, clamped to [`minTtlSeconds`, `maxTtlSeconds`];
 *   failures (no such name, timeouts) for `negativeTtlSeconds`, so a host that does not answer
 *   costs one bounded wait per period, not one per delivery. Concurrent resolutions of one name
 *   share one query. The cache holds at most `maxEntries` names.
 * - `localhost` and `*.localhost` are loopback by definition (RFC 6761) and answered without a
 *   query (c-ares reads no hosts file); IP literals are their own answer.
 */
import { Resolver } from 'node:dns/promises';
import { isIP } from 'node:net';

export interface DnsRecord {
  address: string;
  ttl: number;
}

/** The two queries a resolution makes (a c-ares Resolver; tests pass a fake). */
export interface DnsBackend {
  resolve4(hostname: string, options: { ttl: true }): Promise<DnsRecord[]>;
  resolve6(hostname: string, options: { ttl: true }): Promise<DnsRecord[]>;
}

export interface HostResolverOptions {
  /** Per query attempt (c-ares `timeout`). */
  timeoutMs: number;
  /** Attempts per query (c-ares `tries`). */
  tries: number;
  minTtlSeconds?: number;
  maxTtlSeconds?: number;
  negativeTtlSeconds?: number;
  maxEntries?: number;
  /** DNS servers (`host` or `host:port`); default: the system's (resolv.conf). */
  servers?: readonly string[];
  backend?: DnsBackend;
  now?: () => number;
}

/** A name that could not be resolved within the bounds (its `code` is the DNS one, e.g. ENOTFOUND, ETIMEOUT). */
export class HostResolutionError extends Error {
  constructor(
    readonly hostname: string,
    readonly code: string,
  ) {
    super(`${hostname} did not resolve (${code})`);
    this.name = 'HostResolutionError';
  }
}

type Entry = { addresses: string[]; expiresAt: number } | { error: HostResolutionError; expiresAt: number };

const LOOPBACK = ['127.0.0.1', '::1'];

/** How long one address family's answer waits for the other's once it has addresses. */
const OTHER_FAMILY_GRACE_MS = 250;

type Settled = { records: DnsRecord[] } | { error: unknown };

export function isLocalhostName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

export class HostResolver {
  private readonly backend: DnsBackend;
  private readonly now: () => number;
  private readonly cache = new Map<string, Entry>();
  private readonly pending = new Map<string, Promise<string[]>>();
  private readonly minTtlMs: number;
  private readonly maxTtlMs: number;
  private readonly negativeTtlMs: number;
  private readonly maxEntries: number;
  private readonly deadlineMs: number;

  constructor(options: HostResolverOptions) {
    if (options.backend) {
      this.backend = options.backend;
    } else {
      const resolver = new Resolver({ timeout: options.timeoutMs, tries: options.tries });
      if (options.servers && options.servers.length > 0) resolver.setServers([...options.servers]);
      this.backend = resolver;
    }
    this.now = options.now ?? Date.now;
    this.minTtlMs = (options.minTtlSeconds ?? 5) * 1000;
    this.maxTtlMs = (options.maxTtlSeconds ?? 300) * 1000;
    this.negativeTtlMs = (options.negativeTtlSeconds ?? 30) * 1000;
    this.maxEntries = options.maxEntries ?? 10_000;
    // c-ares doubles its timeout on each retry; the margin covers the slow path of one server.
    this.deadlineMs = options.timeoutMs * options.tries * 2 + 250;
  }

  /** The host's addresses (IPv4 and IPv6, as the DNS gives them); throws HostResolutionError. */
  async resolve(hostname: string): Promise<string[]> {
    const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
    if (isIP(host)) return [host];
    if (isLocalhostName(host)) return [...LOOPBACK];
    const key = host.toLowerCase().replace(/\.$/, '');
    const cached = this.cache.get(key);
    if (cached && cached.expiresAt > this.now()) {
      if ('error' in cached) throw cached.error;
      return [...cached.addresses];
    }
    let pending = this.pending.get(key);
    if (!pending) {
      pending = this.query(key).finally(() => this.pending.delete(key));
      this.pending.set(key, pending);
    }
    return [...(await pending)];
  }

  /** Cached names (for metrics and tests). */
  get size(): number {
    return this.cache.size;
  }

  private async query(host: string): Promise<string[]> {
    try {
      const [v4, v6] = await this.bothFamilies(host);
      const records = [...(v4 && 'records' in v4 ? v4.records : []), ...(v6 && 'records' in v6 ? v6.records : [])];
      if (records.length === 0) {
        const failed = [v4, v6].find((r): r is { error: unknown } => r !== undefined && 'error' in r);
        const timedOut = v4 === undefined || v6 === undefined;
        throw new HostResolutionError(
          host,
          failed ? (codeOf(failed.error) ?? 'ENODATA') : timedOut ? 'ETIMEOUT' : 'ENODATA',
        );
      }
      // a family that gave no answer in time may have addresses: asked again after the shortest TTL
      const whole = v4 !== undefined && v6 !== undefined;
      const ttl = Math.min(...records.map((r) => r.ttl)) * 1000;
      const ttlMs = whole ? Math.min(this.maxTtlMs, Math.max(this.minTtlMs, ttl)) : this.minTtlMs;
      const addresses = records.map((r) => r.address);
      this.remember(host, { addresses, expiresAt: this.now() + ttlMs });
      return addresses;
    } catch (error) {
      const failure =
        error instanceof HostResolutionError ? error : new HostResolutionError(host, codeOf(error) ?? 'ESERVFAIL');
      this.remember(host, { error: failure, expiresAt: this.now() + this.negativeTtlMs });
      throw failure;
    }
  }

  /**
   * The A and AAAA answers, each settled on its own (undefined: none within the deadline). Once the
   * A query has addresses the AAAA one gets OTHER_FAMILY_GRACE_MS more, not the whole deadline: a
   * zone whose AAAA queries go unanswered must not cost every resolution its deadline, nor lose the
   * IPv4 answer that came at once. An AAAA answer alone waits for the A one (within the deadline):
   * kept alone, it would leave an IPv4-only network nothing to connect to.
   */
  private bothFamilies(host: string): Promise<[Settled | undefined, Settled | undefined]> {
    const settled: [Settled | undefined, Settled | undefined] = [undefined, undefined];
    return new Promise((resolve) => {
      let grace: NodeJS.Timeout | undefined;
      const done = () => {
        clearTimeout(deadline);
        clearTimeout(grace);
        resolve(settled);
      };
      const deadline = setTimeout(done, this.deadlineMs);
      deadline.unref();
      [this.backend.resolve4(host, { ttl: true }), this.backend.resolve6(host, { ttl: true })].forEach((query, i) => {
        void query
          .then(
            (records) => ({ records }),
            (error: unknown) => ({ error }),
          )
          .then((result: Settled) => {
            settled[i] = result;
            if (settled[0] !== undefined && settled[1] !== undefined) return done();
            if (i === 0 && 'records' in result && result.records.length > 0 && grace === undefined) {
              grace = setTimeout(done, OTHER_FAMILY_GRACE_MS);
              grace.unref();
            }
          });
      });
    });
  }

  private remember(host: string, entry: Entry): void {
    if (this.cache.size >= this.maxEntries && !this.cache.has(host)) {
      // Oldest insertion first (Map order): a flood of distinct names cannot grow the cache without end.
      const oldest = this.cache.keys().next();
      if (!oldest.done) this.cache.delete(oldest.value);
    }
    this.cache.delete(host);
    this.cache.set(host, entry);
  }
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? code : undefined;
}
