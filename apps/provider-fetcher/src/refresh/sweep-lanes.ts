import type { ProviderSlug } from '@jobs/contracts';

/** Sweeps of one provider at a time per fetcher replica, whatever live searches do. */
export const SWEEP_LANES = 2;
/**
 * More sweeps of one provider may run while its calls are idle: a sweep beyond SWEEP_LANES
 * starts only if RESERVED_FOR_LIVE of the provider's call slots stay free for live searches
 * after it, so a round over a slow partner takes seconds, not a minute, when nobody searches.
 */
export const MAX_SWEEP_LANES = 6;
export const RESERVED_FOR_LIVE = 2;

/** How busy a provider's calls are: all calls under way (live and sweeps) and its limit. */
export type ProviderLoad = (provider: ProviderSlug) => { calls: number; limit: number };

/** One provider's lanes in this replica. */
class ProviderLanes {
  running = 0;
  /** sweeps' calls under way */
  inCall = 0;
  /** sweeps of what moved (a pass): they start before any re-verification sweep waiting */
  readonly urgent: Array<() => void> = [];
  readonly queued: Array<() => void> = [];

  next(): (() => void) | undefined {
    return this.urgent.shift() ?? this.queued.shift();
  }
}

/**
 * The sweep lanes of each provider: SWEEP_LANES sweeps at a time, up to MAX_SWEEP_LANES while
 * the provider's calls leave RESERVED_FOR_LIVE slots free, so live searches keep at least those
 * and every slot a sweep does not hold. Waiting sweeps start in arrival order, a pass's sweeps
 * (new listings, the change feed) before a round's: what moved never waits behind a bucket's
 * re-verification.
 */
export class SweepLanes {
  private readonly lanes = new Map<ProviderSlug, ProviderLanes>();

  constructor(private readonly load: ProviderLoad) {}

  /** Waits for a lane of `provider`; `urgent` for a pass's sweep. */
  async acquire(provider: ProviderSlug, urgent: boolean): Promise<void> {
    const lanes = this.of(provider);
    if (this.free(provider, lanes)) {
      lanes.running += 1;
      return;
    }
    await new Promise<void>((resolve) => (urgent ? lanes.urgent : lanes.queued).push(resolve));
  }

  /** Hands the lane to the next waiting sweep, or frees it; then starts more waiting ones while lanes are free. */
  release(provider: ProviderSlug): void {
    const lanes = this.of(provider);
    const next = lanes.next();
    if (next) next();
    else lanes.running -= 1;
    while ((lanes.urgent.length > 0 || lanes.queued.length > 0) && this.free(provider, lanes)) {
      lanes.running += 1;
      lanes.next()!();
    }
  }

  /**
   * Between two parts: a sweep running beyond SWEEP_LANES gives its lane back when live calls
   * now need the slots (it waits at the head of its queue and goes on when a lane frees).
   */
  async keep(provider: ProviderSlug, urgent: boolean): Promise<void> {
    const lanes = this.of(provider);
    if (lanes.running <= SWEEP_LANES || this.free(provider, lanes, lanes.running - 1)) return;
    lanes.running -= 1;
    await new Promise<void>((resolve) => (urgent ? lanes.urgent : lanes.queued).unshift(resolve));
  }

  /** Runs one call of a sweep, counted as the sweep's (not live work). */
  async call<T>(provider: ProviderSlug, work: () => Promise<T>): Promise<T> {
    const lanes = this.of(provider);
    lanes.inCall += 1;
    try {
      return await work();
    } finally {
      lanes.inCall -= 1;
    }
  }

  /** Whether one more sweep of `provider` may run besides `running` others. */
  private free(provider: ProviderSlug, lanes: ProviderLanes, running = lanes.running): boolean {
    if (running < SWEEP_LANES) return true;
    if (running >= MAX_SWEEP_LANES) return false;
    // the provider's other calls are live work (a running sweep holds at most one slot, or none between parts)
    const { calls, limit } = this.load(provider);
    const live = Math.max(0, calls - lanes.inCall);
    return running + 1 + live + RESERVED_FOR_LIVE <= limit;
  }

  private of(provider: ProviderSlug): ProviderLanes {
    let lanes = this.lanes.get(provider);
    if (!lanes) this.lanes.set(provider, (lanes = new ProviderLanes()));
    return lanes;
  }
}
