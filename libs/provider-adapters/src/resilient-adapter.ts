import {
  providerProfile,
  type CircuitState,
  type NormalizedProviderRecord,
  type ProviderCallSettings,
  type ProviderSlug,
} from '@jobs/contracts';
import { ProviderResponseError, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { AbortableSlots } from './abortable-slots.js';

/** How a provider is called: its entry's `calls` in the provider registry (@jobs/contracts). */
export type ResilienceSettings = ProviderCallSettings;

/** What a circuit breaker is doing now, and since when (epoch ms). */
export interface CircuitSnapshot {
  provider: ProviderSlug;
  state: CircuitState;
  since: number;
  /** When an open circuit lets a trial call through; null unless open. */
  retryAt: number | null;
}

/** The circuit is open: the provider failed repeatedly and is not called for a while. */
export class CircuitOpenError extends Error {
  constructor(readonly provider: ProviderSlug) {
    super(`${provider} circuit open`);
    this.name = 'CircuitOpenError';
  }
}

/** 5xx, 429 and network failures (no status) may pass; 4xx and unreadable answers will not. */
/** Statuses that refuse the query itself (its filters, its size), not the caller or the service. */
const QUERY_REFUSALS = new Set([400, 409, 413, 414, 422]);
const refusesTheQuery = (status: number | null): boolean => status !== null && QUERY_REFUSALS.has(status);

export function isTransient(error: unknown): boolean {
  if (error instanceof ProviderResponseError)
    return error.status === null || error.status >= 500 || error.status === 429;
  return error instanceof TypeError; // fetch's network failure
}

/**
 * Wraps a provider adapter with what every partner call needs: a concurrency limit, retries of
 * transient failures that never outlive the search's deadline, and a circuit breaker so a dead
 * provider is answered at once (provider_error) instead of being waited for on every search.
 */
export class ResilientAdapter implements ProviderAdapter {
  readonly provider: ProviderSlug;
  private readonly slots: AbortableSlots;
  private failures = 0;
  private openUntil = 0;
  /** A half-open circuit's trial call is under way: other calls are refused until it ends. */
  private trialInFlight = false;
  private openedAt = 0;
  private closedAt: number;
  private readonly listeners: Array<(snapshot: CircuitSnapshot) => void> = [];

  constructor(
    private readonly inner: ProviderAdapter,
    private readonly settings: ResilienceSettings = providerProfile(inner.provider).calls,
    private readonly now: () => number = Date.now,
  ) {
    this.slots = new AbortableSlots(settings.maxConcurrent);
    this.provider = inner.provider;
    this.closedAt = now();
  }

  get readsListings(): boolean {
    return this.inner.readsListings ?? false;
  }

  get circuit(): CircuitState {
    if (this.failures < this.settings.breakerThreshold) return 'closed';
    return this.now() < this.openUntil ? 'open' : 'half_open';
  }

  /** The breaker's state and since when; half-open starts when the cool-down of the open state ends. */
  snapshot(): CircuitSnapshot {
    const state = this.circuit;
    if (state === 'closed') return { provider: this.provider, state, since: this.closedAt, retryAt: null };
    if (state === 'open') return { provider: this.provider, state, since: this.openedAt, retryAt: this.openUntil };
    return { provider: this.provider, state, since: this.openUntil, retryAt: null };
  }

  /**
   * Called on every change a call causes (closed to open, half-open to open or closed, an open
   * circuit's retry time moving). Open to half-open happens by time alone, with no call: read
   * `snapshot()` for it, or derive it from `retryAt`.
   */
  onCircuitChange(listener: (snapshot: CircuitSnapshot) => void): void {
    this.listeners.push(listener);
  }

  async search(query: ProviderQuery): Promise<NormalizedProviderRecord[]> {
    const circuit = this.circuit;
    if (circuit === 'open') throw new CircuitOpenError(this.provider);
    // Half-open lets one trial call through at a time: a provider that still hangs holds one call
    // for its timeout, not every search that arrives meanwhile.
    if (circuit === 'half_open') {
      if (this.trialInFlight) throw new CircuitOpenError(this.provider);
      this.trialInFlight = true;
    }
    try {
      await this.acquire(query.signal);
      const startedAt = this.now();
      try {
        for (let attempt = 0; ; attempt++) {
          try {
            const records = await this.inner.search(query);
            this.recordSuccess();
            return records;
          } catch (error) {
            if (query.signal.aborted || !isTransient(error) || attempt >= this.settings.retries) {
              this.recordFailure(error, query, startedAt);
              throw error;
            }
            await delay(this.settings.retryDelayMs * 2 ** attempt, query.signal);
          }
        }
      } finally {
        this.release();
      }
    } finally {
      if (circuit === 'half_open') this.trialInFlight = false;
    }
  }

  private recordFailure(error: unknown, query: ProviderQuery, startedAt: number): void {
    // A search's own deadline passing says nothing about the provider's health, unless the
    // provider had long enough that its silence does; a call timeout always does.
    if (
      query.signal.aborted &&
      !(error instanceof ProviderResponseError) &&
      !query.deadlineIsCallTimeout &&
      this.now() - startedAt < this.settings.stalledAfterMs
    )
      return;
    // A query the provider refuses as malformed says nothing about its health either: counted, one
    // account's odd filters would open the circuit for every account's searches.
    if (error instanceof ProviderResponseError && refusesTheQuery(error.status)) return;
    const wasOpen = this.circuit === 'open';
    this.failures += 1;
    if (this.failures < this.settings.breakerThreshold) return;
    const now = this.now();
    if (!wasOpen) this.openedAt = now;
    this.openUntil = now + this.settings.breakerCooldownMs;
    this.notify();
  }

  private recordSuccess(): void {
    const wasClosed = this.failures < this.settings.breakerThreshold;
    this.failures = 0;
    if (wasClosed) return;
    this.closedAt = this.now();
    this.notify();
  }

  private notify(): void {
    const snapshot = this.snapshot();
    for (const listener of this.listeners) listener(snapshot);
  }

  private acquire(signal: AbortSignal): Promise<void> {
    return this.slots.acquire(signal, () => (signal.reason instanceof Error ? signal.reason : new Error('aborted')));
  }

  private release(): void {
    this.slots.release();
  }
}

function delay(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
