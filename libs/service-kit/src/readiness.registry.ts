import { Injectable } from '@nestjs/common';

export type ReadinessCheck = () => boolean | Promise<boolean>;

export interface ReadinessReport {
  ready: boolean;
  checks: Record<string, boolean>;
}

/**
 * Components register what "ready" means for them (consumer joined, database reachable...).
 * The service is ready when every check passes and it is not draining.
 */
@Injectable()
export class ReadinessRegistry {
  private readonly checks = new Map<string, ReadinessCheck>();
  private draining = false;

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
    const entries = await Promise.all(
      [...this.checks].map(async ([name, check]) => {
        try {
          return [name, await withTimeout(Promise.resolve(check()), 2000)] as const;
        } catch {
          return [name, false] as const;
        }
      }),
    );
    const checks = Object.fromEntries(entries);
    return { ready: !this.draining && entries.every(([, ok]) => ok), checks };
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
