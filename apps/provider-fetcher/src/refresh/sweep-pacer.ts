/**
 * A round's sweeps (re-verification of a bucket) at a time in one fetcher replica, per provider.
 * A round is background work that must end within an interval, not fast: started all at once its
 * pages kept the simulated partners and this fetcher busy and slowed the searches answered
 * meanwhile. Per provider, so a provider that is slow or silent holds only its own places; a
 * larger store wants more fetcher replicas (each paces its own partitions) or a higher figure.
 */
export const ROUND_SWEEPS = 2;

/**
 * Paces the refresh sweeps of one provider in one fetcher replica. A pass's sweep (what moved:
 * a partner's new listings, the own crawler's change feed; what a watch's `job.opened` waits for)
 * starts at once: a provider has one pass at a time. A round's sweeps wait for one of `places`,
 * in arrival order. A provider thus has at most its pass sweep and the round's places among its
 * calls; live searches keep the rest.
 */
export class SweepPacer {
  private running = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly places = ROUND_SWEEPS) {}

  /** Waits for a round place (`urgent`: a pass's sweep, which takes none). */
  async acquire(urgent: boolean): Promise<void> {
    if (urgent) return;
    if (this.running < this.places) {
      this.running += 1;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  /** Hands a round's place to the next round sweep waiting, or frees it. */
  release(urgent: boolean): void {
    if (urgent) return;
    const next = this.waiting.shift();
    if (next) next();
    else this.running -= 1;
  }
}
