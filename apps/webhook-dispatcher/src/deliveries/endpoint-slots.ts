/**
 * Bounded concurrency of webhook attempts: at most `total` at once in this process and at most
 * `perEndpoint` to one endpoint URL, so a slow or dead endpoint holds only its own slots and
 * never the others'. Pure.
 */
export class EndpointSlots {
  private readonly inFlight = new Map<string, number>();
  private running = 0;

  constructor(
    readonly total: number,
    readonly perEndpoint: number,
  ) {
    if (!(Number.isInteger(total) && total > 0 && Number.isInteger(perEndpoint) && perEndpoint > 0))
      throw new RangeError('slots must be positive integers');
  }

  /** Attempts that may still start now. */
  get free(): number {
    return this.total - this.running;
  }

  get size(): number {
    return this.running;
  }

  /** Endpoints with every slot taken: claims skip them. */
  saturated(): string[] {
    return [...this.inFlight].filter(([, count]) => count >= this.perEndpoint).map(([url]) => url);
  }

  /** Attempts under way per endpoint (endpoints with none are absent): a claim's per-endpoint room. */
  byEndpoint(): ReadonlyMap<string, number> {
    return this.inFlight;
  }

  /** Attempts under way to one endpoint. */
  inFlightTo(url: string): number {
    return this.inFlight.get(url) ?? 0;
  }

  tryTake(url: string): boolean {
    const count = this.inFlight.get(url) ?? 0;
    if (this.running >= this.total || count >= this.perEndpoint) return false;
    this.inFlight.set(url, count + 1);
    this.running += 1;
    return true;
  }

  release(url: string): void {
    const count = this.inFlight.get(url) ?? 0;
    if (count === 0) throw new Error(`no slot taken for ${url}`);
    if (count === 1) this.inFlight.delete(url);
    else this.inFlight.set(url, count - 1);
    this.running -= 1;
  }
}
