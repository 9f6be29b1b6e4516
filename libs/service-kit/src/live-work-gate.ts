/**
 * Priority of live work (a customer's search waiting for its answer) over background work (a
 * refresh pass) inside one process: live work runs through `live()`, and background work calls
 * `yieldToLive()` between its steps, which waits while live work is in flight or ended less than
 * `quietMs` ago (a search's next provider batch usually follows within that), for `maxWaitMs` at
 * most, so background work slows down under live load but never stops.
 */
export class LiveWorkGate {
  private inFlight = 0;
  private lastLiveEndedAt = 0;
  private readonly waiters = new Set<() => void>();
  private timer?: NodeJS.Timeout;

  constructor(
    private readonly quietMs = 250,
    private readonly now: () => number = Date.now,
  ) {}

  /** Runs live work; background work waits for it. */
  async live<T>(work: () => Promise<T>): Promise<T> {
    this.inFlight += 1;
    try {
      return await work();
    } finally {
      this.inFlight -= 1;
      this.lastLiveEndedAt = this.now();
      if (this.inFlight === 0) this.wakeWhenQuiet();
    }
  }

  /** Whether background work should wait now. */
  get busy(): boolean {
    return this.inFlight > 0 || this.now() - this.lastLiveEndedAt < this.quietMs;
  }

  /** Waits until no live work is in flight or recent, `maxWaitMs` at most; true if it waited. */
  async yieldToLive(maxWaitMs: number): Promise<boolean> {
    if (!this.busy) return false;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timeout);
        this.waiters.delete(done);
        resolve();
      };
      const timeout = setTimeout(done, maxWaitMs);
      this.waiters.add(done);
      this.wakeWhenQuiet();
    });
    return true;
  }

  private wakeWhenQuiet(): void {
    clearTimeout(this.timer);
    if (this.waiters.size === 0 || this.inFlight > 0) return;
    const left = this.quietMs - (this.now() - this.lastLiveEndedAt);
    if (left > 0) {
      this.timer = setTimeout(() => this.wakeWhenQuiet(), left);
      return;
    }
    for (const wake of [...this.waiters]) wake();
  }
}
