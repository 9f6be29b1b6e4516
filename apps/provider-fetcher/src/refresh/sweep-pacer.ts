/**
 * A round's sweeps (re-verification of a bucket) at a time in one fetcher replica, over all
 * providers. A round is background work that must end within an interval, not fast: started all
 * at once (six partners, then up to six sweeps each) its pages kept the simulated partners and
 * this fetcher busy for 1.4 of the machine's 2 cores in the seconds after a refresh call, and
 * searches answered from the store meanwhile took 1.4-1.7x their quiet time. Two at a time, a
 * round at the `bench:watches` scale (about 60 sweeps) takes about half an interval; a larger
 * store wants more fetcher replicas (each paces its own partitions) or a higher figure.
 */
export const ROUND_SWEEPS = 2;

/**
 * Paces the refresh sweeps of one fetcher replica. A pass's sweeps (what moved: partners' new
 * listings, the own crawler's change feed; what a watch's `job.opened` waits for) start at once:
 * a pass has one sweep per provider and never overlaps the next. A round's sweeps wait for one
 * of `places`, in arrival order. A provider thus has at most its pass sweep and the round's
 * places among its calls; live searches keep the rest.
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
