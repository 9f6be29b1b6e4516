import { Inject, Injectable, type OnModuleDestroy } from '@nestjs/common';
import { PROVIDER_SLUGS, SIM_PROVIDERS, fnv1a, unit, type ProviderSlug } from '@jobs/sim-world';
import { SIM_OPTIONS, type SimOptions } from '../config/sim-options.js';

export type FailMode = 'none' | 'error' | 'timeout';
export type ProviderStatus = 'operational' | 'degraded' | 'down';

export interface ProviderSettings {
  slug: ProviderSlug;
  latency_ms: number;
  fail: FailMode;
  status: ProviderStatus;
  /** True when latency_ms was set through the control API (then it is exact, without jitter). */
  latency_overridden: boolean;
  updated_at: string;
}

export type Outcome = 'answer' | 'error' | 'aborted';

/**
 * Latency, injected failures and reported status of each provider (operator.md "Providers").
 * Waits are cancelled when the client goes away or the application shuts down.
 */
@Injectable()
export class ProviderBehaviourService implements OnModuleDestroy {
  private readonly settings = new Map<ProviderSlug, ProviderSettings>();
  private readonly pending = new Set<() => void>();
  private sequence = 0;
  private closing = false;

  constructor(@Inject(SIM_OPTIONS) private readonly options: SimOptions) {
    this.reset();
  }

  all(): ProviderSettings[] {
    return PROVIDER_SLUGS.map((slug) => this.get(slug));
  }

  get(slug: ProviderSlug): ProviderSettings {
    return { ...this.settings.get(slug)! };
  }

  update(
    slug: ProviderSlug,
    patch: { latency_ms?: number; fail?: FailMode; status?: ProviderStatus },
  ): ProviderSettings {
    const current = this.settings.get(slug)!;
    this.settings.set(slug, {
      ...current,
      ...(patch.latency_ms !== undefined ? { latency_ms: patch.latency_ms, latency_overridden: true } : {}),
      ...(patch.fail !== undefined ? { fail: patch.fail } : {}),
      ...(patch.status !== undefined ? { status: patch.status } : {}),
      updated_at: new Date().toISOString(),
    });
    return this.get(slug);
  }

  reset(): void {
    const now = new Date().toISOString();
    for (const slug of PROVIDER_SLUGS) {
      this.settings.set(slug, {
        slug,
        // the seeded behaviour: its typical response time (the simulator's registry), jittered ±20 % per request
        latency_ms: SIM_PROVIDERS[slug].latencyMs,
        fail: 'none',
        status: 'operational',
        latency_overridden: false,
        updated_at: now,
      });
    }
  }

  /** This request's latency: exact when overridden, else the default with deterministic jitter. */
  latencyFor(slug: ProviderSlug): number {
    const s = this.settings.get(slug)!;
    if (s.latency_overridden) return s.latency_ms;
    const jitter = 0.8 + 0.4 * unit(this.options.seed, fnv1a(slug), this.sequence++);
    return Math.round(s.latency_ms * jitter);
  }

  /** Holds the request for the provider's latency and applies its failure mode. */
  async apply(slug: ProviderSlug, signal: AbortSignal): Promise<Outcome> {
    if (!(await this.wait(this.latencyFor(slug), signal))) return 'aborted';
    const fail = this.settings.get(slug)!.fail;
    if (fail === 'error') return 'error';
    if (fail === 'timeout' && !(await this.wait(this.options.timeoutMs, signal))) return 'aborted';
    return 'answer';
  }

  /** Resolves true after `ms`, false if aborted or the app is closing. */
  private wait(ms: number, signal: AbortSignal): Promise<boolean> {
    if (this.closing || signal.aborted) return Promise.resolve(false);
    if (ms <= 0) return Promise.resolve(true);
    return new Promise((resolve) => {
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        signal.removeEventListener('abort', cancel);
        this.pending.delete(cancel);
        resolve(value);
      };
      const cancel = (): void => finish(false);
      const timer = setTimeout(() => finish(true), ms);
      signal.addEventListener('abort', cancel, { once: true });
      this.pending.add(cancel);
    });
  }

  /** Releases held requests so shutdown never waits for a simulated timeout. */
  onModuleDestroy(): void {
    this.closing = true;
    for (const cancel of [...this.pending]) cancel();
  }
}
