import { detached } from '@jobs/observability';

/**
 * A background pass that runs again after the delay it returns, or at once when kicked: kicks
 * during a pass coalesce into one more pass right after it, and `stop()` waits for the pass
 * under way. The pass handles its own errors (it returns the delay before the next try), so the
 * loop never dies. Used by pollers of committed work: the outbox relay, webhook deliveries.
 */
export class KickableLoop {
  /** Cancels the scheduled pass (a timer, or an immediate for a pass due now). */
  private cancelScheduled?: () => void;
  /** When the scheduled pass runs (epoch ms), while one is scheduled and none runs. */
  private dueAt?: number;
  private running?: Promise<void>;
  private again = false;
  /** A wakeWithin() during a pass: the next pass runs no later than this (epoch ms). */
  private soonest?: number;
  private stopped = false;

  constructor(private readonly pass: () => Promise<number>) {}

  get isStopped(): boolean {
    return this.stopped;
  }

  /** The first pass after `delayMs` (at once by default). */
  start(delayMs = 0): void {
    this.schedule(delayMs);
  }

  /** Run a pass now (or right after the one under way). */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.schedule(0);
  }

  /** Run a pass within `ms` at the latest (sooner if it was scheduled sooner). */
  wakeWithin(ms: number): void {
    if (this.stopped) return;
    if (this.running) {
      // the pass under way returns its own delay; it runs again no later than asked
      this.soonest = Math.min(this.soonest ?? Infinity, Date.now() + ms);
      return;
    }
    if (this.dueAt !== undefined && this.dueAt <= Date.now() + ms) return;
    this.schedule(ms);
  }

  /** No more passes; resolves once the pass under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.cancelScheduled?.();
    await this.running;
  }

  private schedule(delayMs: number): void {
    this.cancelScheduled?.();
    this.cancelScheduled = undefined;
    this.dueAt = undefined;
    if (this.stopped) return;
    this.dueAt = Date.now() + delayMs;
    // Passes belong to no request: a kick from a handler must not hand its trace to every later pass.
    const run = () =>
      detached(() => {
        this.cancelScheduled = undefined;
        this.dueAt = undefined;
        this.running = this.pass().then((wakeInMs) => {
          this.running = undefined;
          const soonest = this.soonest === undefined ? Infinity : Math.max(0, this.soonest - Date.now());
          const next = this.again ? 0 : Math.min(wakeInMs, soonest);
          this.again = false;
          this.soonest = undefined;
          this.schedule(next);
        });
      });
    // A pass due now (a kick: the outbox relay after a commit, on a search's answer path) runs
    // on this turn of the event loop; a timer of 0 waits at least 1 ms for the timers phase.
    if (delayMs <= 0) {
      const immediate = setImmediate(run);
      this.cancelScheduled = () => clearImmediate(immediate);
    } else {
      const timer = setTimeout(run, delayMs);
      this.cancelScheduled = () => clearTimeout(timer);
    }
  }
}
