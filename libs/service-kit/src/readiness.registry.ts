import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => boolean | Promise<boolean>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, boolean>;
}

/**
 * A report this recent answers again: the probe is unauthenticated (the gateway's runs a database
 * query and asks every service), so a flood of probes runs the checks at most twice a second.
 */
const REPORT_REUSE_MS = 500;

/**
 * Components register what "ready" means for them (consumer joined, database reachable...).
 * The service is ready when every check passes and it is not draining.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;
  /** The checks under way (probes that come meanwhile share them) or last run, with when they ended. */
  private last?: { checks: Promise<Record<string, boolean>>; endedAt?: number };

  register(name: string, check: ReadinessCheck): void {
    this.checks.set(name, check);
  }

  markDraining(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  async report(): Promise<ReadinessReport> {
    const last = this.last;
    const reusable = last && (last.endedAt === undefined || Date.now() - last.endedAt < REPORT_REUSE_MS);
    let run = reusable ? last : undefined;
    if (!run) {
      const started: { checks: Promise<Record<string, boolean>>; endedAt?: number } = { checks: this.runChecks() };
      void started.checks.then(() => (started.endedAt = Date.now()));
      this.last = run = started;
    }
    const checks = await run.checks;
    // draining is read now, never from a reused report
    return { ready: !this.draining && Object.values(checks).every(Boolean), checks: { ...checks } };
  }

  private async runChecks(): Promise<Record<string, boolean>> {
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          return [name, await withTimeout(Promise.resolve(check()), 2000)] as const;
        } catch {
          return [name, false] as const;
        }
      }),
    );
    return Object.fromEntries(entries);
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('readiness check timed out')), ms);
    promise.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(timer);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
