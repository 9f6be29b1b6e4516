/** Endpoints whose pace is remembered at most (the least recently used forgotten first): a bound on memory. */
const MAX_PACED = 10_000;
/** Attempts at once to an endpoint this process has not heard answer yet. */
const FIRST_LIMIT = 2;

/**
 * Bounded concurrency of webhook attempts: at most `total` at once in this process, at most
 * `perAccount` for one account's endpoints together and at most `perEndpoint` to one endpoint
 * URL, so a slow or dead endpoint holds only its own slots and never the others', and one account's
 * many slow endpoints hold only that account's. Within that, each endpoint earns its share: one not
 * yet heard from gets FIRST_LIMIT attempts at once, each success doubles that up to `perEndpoint`,
 * and an attempt that hung or could not connect cuts it to one. Otherwise a few dead endpoints with
 * a backlog would take every slot (`total / perEndpoint` of them suffice) and every other account
 * would wait behind their 10 s timeouts. Pure.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly accountInFlight = new Map<string, number>();
  /** Each endpoint's earned limit, least recently paced first. */
  private readonly limits = new Map<string, number>();
  private running = 0;

  constructor(
    readonly total: number,
    readonly perEndpoint: number,
    readonly perAccount = total,
  ) {
    if (![total, perEndpoint, perAccount].every((n) => Number.isInteger(n) && n > 0))
      throw new RangeError('slots must be positive integers');
  }

  /** Attempts that may still start now. */
  get free(): number {
    return this.total - this.running;
  }

  get size(): number {
    return this.running;
  }

  /** The limit of an endpoint this process has not heard answer yet. */
  get firstLimit(): number {
    return Math.min(FIRST_LIMIT, this.perEndpoint);
  }

  /** Endpoints with every slot they may use taken: claims skip them. */
  saturated(): string[] {
    return [...this.inFlight].filter(([url, count]) => count >= this.limitOf(url)).map(([url]) => url);
  }

  /** Endpoints paced below what a new one gets (one hung), with their limits: claims for them stay as few. */
  slowed(): Array<[url: string, limit: number]> {
    return [...this.limits].filter(([, limit]) => limit < this.firstLimit);
  }

  /** Attempts one endpoint may have under way at once now. */
  limitOf(url: string): number {
    return this.limits.get(url) ?? this.firstLimit;
  }

  /** An attempt to `url` succeeded: twice its limit, up to `perEndpoint`. */
  succeeded(url: string): void {
    this.pace(url, Math.min(this.perEndpoint, 2 * this.limitOf(url)));
  }

  /** An attempt to `url` hung or could not connect: one attempt at a time there until one succeeds. */
  hung(url: string): void {
    this.pace(url, 1);
  }

  /** Attempts under way per endpoint (endpoints with none are absent): a claim's per-endpoint room. */
  byEndpoint(): ReadonlyMap<string, number> {
    return this.inFlight;
  }

  /** Attempts under way per account (accounts with none are absent): a claim's per-account room. */
  byAccount(): ReadonlyMap<string, number> {
    return this.accountInFlight;
  }

  /** Attempts under way to one endpoint. */
  inFlightTo(url: string): number {
    return this.inFlight.get(url) ?? 0;
  }

  tryTake(url: string, account: string): boolean {
    const count = this.inFlight.get(url) ?? 0;
    const ofAccount = this.accountInFlight.get(account) ?? 0;
    if (this.running >= this.total || count >= this.limitOf(url) || ofAccount >= this.perAccount) return false;
    this.inFlight.set(url, count + 1);
    this.accountInFlight.set(account, ofAccount + 1);
    this.running += 1;
    return true;
  }

  release(url: string, account: string): void {
    const count = this.inFlight.get(url) ?? 0;
    const ofAccount = this.accountInFlight.get(account) ?? 0;
    if (count === 0 || ofAccount === 0) throw new Error(`no slot taken for ${url}`);
    decrement(this.inFlight, url, count);
    decrement(this.accountInFlight, account, ofAccount);
    this.running -= 1;
  }

  private pace(url: string, limit: number): void {
    this.limits.delete(url);
    this.limits.set(url, limit);
    if (this.limits.size > MAX_PACED) this.limits.delete(this.limits.keys().next().value!);
  }
}

function decrement(counts: Map<string, number>, key: string, count: number): void {
  if (count === 1) counts.delete(key);
  else counts.set(key, count - 1);
}
