import type { ProviderSlug } from '@jobs/contracts';

/**
 * Round sweeps (re-verification of a bucket) at a time in one fetcher replica, over all
 * providers. A round is background work that must end within an interval, not fast: started all
 * at once its pages kept the simulated partners and this fetcher busy and slowed the searches
 * answered meanwhile (1.4x their quiet time right after a refresh call with two sweeps per
 * provider at once). A larger store wants more fetcher replicas (each paces its own partitions)
 * or a higher figure.
 */
export const ROUND_SWEEPS = 3;
/**
 * Round sweeps of one provider at a time: a provider that is slow or silent (up to its call
 * deadline) holds this many of the places at most, and the others keep the rest.
 */
export const ROUND_SWEEPS_PER_PROVIDER = 1;

/**
 * Paces the refresh sweeps of one fetcher replica. A pass's sweep (what moved: a partner's new
 * listings, the own crawler's change feed; what a watch's `job.opened` waits for) starts at once:
 * a provider has one pass at a time. A round's sweeps wait for one of `places`, at most
 * `perProvider` of them per provider, and waiting providers take turns (each in arrival order),
 * so a provider with many sweeps waiting never starves one with few. A provider thus has at most
 * its pass sweep and its round places among its calls; live searches keep the rest.
 */
export class SweepPacer {
  private running = 0;
  private readonly runningBy = new Map<ProviderSlug, number>();
  /** Waiting round sweeps by provider; the map's order is the providers' turn order. */
  private readonly waiting = new Map<ProviderSlug, Array<() => void>>();

  constructor(
    private readonly places = ROUND_SWEEPS,
    private readonly perProvider = ROUND_SWEEPS_PER_PROVIDER,
  ) {}

  /** Waits for a round place (`urgent`: a pass's sweep, which takes none). */
  async acquire(provider: ProviderSlug, urgent: boolean): Promise<void> {
    if (urgent) return;
    if (!this.waiting.has(provider) && this.canStart(provider)) return this.take(provider);
    await new Promise<void>((resolve) => {
      const queue = this.waiting.get(provider) ?? [];
      queue.push(resolve);
      this.waiting.set(provider, queue);
    });
  }

  /** Frees a round place and hands it on to the next provider whose turn it is. */
  release(provider: ProviderSlug, urgent: boolean): void {
    if (urgent) return;
    this.running -= 1;
    this.runningBy.set(provider, (this.runningBy.get(provider) ?? 1) - 1);
    this.grant();
  }

  private canStart(provider: ProviderSlug): boolean {
    return this.running < this.places && (this.runningBy.get(provider) ?? 0) < this.perProvider;
  }

  private take(provider: ProviderSlug): void {
    this.running += 1;
    this.runningBy.set(provider, (this.runningBy.get(provider) ?? 0) + 1);
  }

  private grant(): void {
    while (this.running < this.places) {
      const provider = [...this.waiting.keys()].find((p) => this.canStart(p));
      if (provider === undefined) return;
      const queue = this.waiting.get(provider)!;
      const next = queue.shift()!;
      // its turn taken: to the back of the line (or out of it when nothing of it waits)
      this.waiting.delete(provider);
      if (queue.length > 0) this.waiting.set(provider, queue);
      this.take(provider);
      next();
    }
  }
}
