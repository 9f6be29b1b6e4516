import { detached } from '@jobs/observability';

/**
 * A background pass that runs again after the delay it returns, or at once when kicked: kicks
 * during a pass coalesce into one more pass right after it, and `stop()` waits for the pass
 * under way. The pass handles its own errors (it returns the delay before the next try), so the
 * loop never dies. Used by pollers of committed work: the outbox relay, webhook deliveries.
 */
export class KickableLoop {
  private timer?: NodeJS.Timeout;
  private running?: Promise<void>;
  private again = false;
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

  /** No more passes; resolves once the pass under way (if any) has ended. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    await this.running;
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    if (this.stopped) return;
    // Passes belong to no request: a kick from a handler must not hand its trace to every later pass.
    this.timer = setTimeout(
      () =>
        detached(() => {
          this.running = this.pass().then((wakeInMs) => {
            this.running = undefined;
            const next = this.again ? 0 : wakeInMs;
            this.again = false;
            this.schedule(next);
          });
        }),
      delayMs,
    );
  }
}
