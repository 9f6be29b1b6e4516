import type { NormalizedProviderRecord } from '@jobs/contracts';
import { ProviderResponseError, type ProviderAdapter, type ProviderQuery } from './provider-adapter.js';
import { CircuitOpenError, isTransient, ResilientAdapter } from './resilient-adapter.js';

const settings = {
  maxConcurrent: 2,
  retries: 2,
  retryDelayMs: 1,
  breakerThreshold: 3,
  breakerCooldownMs: 1000,
  stalledAfterMs: 5000,
};
const query = (signal = new AbortController().signal): ProviderQuery => ({ filters: {}, want: 5, signal });

/** A fake partner whose answers the test scripts. */
function fakeProvider(script: Array<'ok' | 500 | 400 | 401 | 422 | 'network'>) {
  let calls = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  const adapter: ProviderAdapter = {
    provider: 'provider_a',
    async search(): Promise<NormalizedProviderRecord[]> {
      const step = script[Math.min(calls, script.length - 1)]!;
      calls += 1;
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      await new Promise((r) => setTimeout(r, 5));
      inFlight -= 1;
      if (step === 'ok') return [];
      if (step === 'network') throw new TypeError('fetch failed');
      throw new ProviderResponseError('provider_a', step, `answered ${step}`);
    },
  };
  return { adapter, calls: () => calls, maxInFlight: () => maxInFlight };
}

describe('ResilientAdapter', () => {
  it('retries transient failures and succeeds', async () => {
    const fake = fakeProvider([500, 'network', 'ok']);
    await expect(new ResilientAdapter(fake.adapter, settings).search(query())).resolves.toEqual([]);
    expect(fake.calls()).toBe(3);
  });

  it('does not retry a 4xx', async () => {
    const fake = fakeProvider([400, 'ok']);
    await expect(new ResilientAdapter(fake.adapter, settings).search(query())).rejects.toBeInstanceOf(
      ProviderResponseError,
    );
    expect(fake.calls()).toBe(1);
  });

  it('never retries past the deadline', async () => {
    const fake = fakeProvider([500]);
    const controller = new AbortController();
    const slow = new ResilientAdapter(fake.adapter, { ...settings, retries: 10, retryDelayMs: 50 });
    const pending = slow.search(query(controller.signal));
    setTimeout(() => controller.abort(new Error('deadline')), 20);
    await expect(pending).rejects.toThrow();
    expect(fake.calls()).toBeLessThanOrEqual(2);
  });

  it('limits calls in flight', async () => {
    const fake = fakeProvider(['ok']);
    const adapter = new ResilientAdapter(fake.adapter, settings);
    await Promise.all(Array.from({ length: 6 }, () => adapter.search(query())));
    expect(fake.calls()).toBe(6);
    expect(fake.maxInFlight()).toBe(2);
  });

  it('opens the circuit after repeated failures, then lets a trial through after the cooldown', async () => {
    let now = 0;
    const fake = fakeProvider([500, 500, 500, 'ok']);
    const adapter = new ResilientAdapter(fake.adapter, { ...settings, retries: 0 }, () => now);
    for (let i = 0; i < 3; i++) await expect(adapter.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    expect(adapter.circuit).toBe('open');
    await expect(adapter.search(query())).rejects.toBeInstanceOf(CircuitOpenError);
    expect(fake.calls()).toBe(3);
    now = 1001;
    expect(adapter.circuit).toBe('half_open');
    await expect(adapter.search(query())).resolves.toEqual([]);
    expect(adapter.circuit).toBe('closed');
  });

  it('reports each state with the time it started, and tells listeners about every change', async () => {
    let now = 100;
    const fake = fakeProvider([500, 500, 500, 500, 'ok']);
    const adapter = new ResilientAdapter(fake.adapter, { ...settings, retries: 0 }, () => now);
    const changes: unknown[] = [];
    adapter.onCircuitChange((s) => changes.push(s));
    expect(adapter.snapshot()).toEqual({ provider: 'provider_a', state: 'closed', since: 100, retryAt: null });

    now = 200;
    for (let i = 0; i < 3; i++) await expect(adapter.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    expect(adapter.snapshot()).toEqual({ provider: 'provider_a', state: 'open', since: 200, retryAt: 1200 });

    now = 1200; // the cool-down is over: half-open from the moment it ended, with no call
    expect(adapter.snapshot()).toEqual({ provider: 'provider_a', state: 'half_open', since: 1200, retryAt: null });
    now = 1300; // the trial fails: open again, from now
    await expect(adapter.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    expect(adapter.snapshot()).toEqual({ provider: 'provider_a', state: 'open', since: 1300, retryAt: 2300 });

    now = 2400; // the next trial succeeds: closed
    await expect(adapter.search(query())).resolves.toEqual([]);
    expect(adapter.snapshot()).toEqual({ provider: 'provider_a', state: 'closed', since: 2400, retryAt: null });
    expect(changes).toEqual([
      { provider: 'provider_a', state: 'open', since: 200, retryAt: 1200 },
      { provider: 'provider_a', state: 'open', since: 1300, retryAt: 2300 },
      { provider: 'provider_a', state: 'closed', since: 2400, retryAt: null },
    ]);
  });

  it("counts a call timeout against the provider's breaker, never a caller's own deadline", async () => {
    /** A partner that never answers within any deadline, and stops when its call is aborted. */
    const silent: ProviderAdapter = {
      provider: 'provider_b',
      search: (q) =>
        new Promise((_, reject) => {
          if (q.signal.aborted) reject(q.signal.reason as Error);
          else q.signal.addEventListener('abort', () => reject(q.signal.reason as Error), { once: true });
        }),
    };
    const timedOut = async (adapter: ResilientAdapter, deadlineIsCallTimeout: boolean) => {
      const controller = new AbortController();
      const pending = adapter.search({ ...query(controller.signal), deadlineIsCallTimeout });
      controller.abort(new Error('deadline'));
      await expect(pending).rejects.toThrow('deadline');
    };
    const searchDeadlines = new ResilientAdapter(silent, { ...settings, retries: 0 });
    for (let i = 0; i < 5; i++) await timedOut(searchDeadlines, false);
    expect(searchDeadlines.circuit).toBe('closed');
    const callTimeouts = new ResilientAdapter(silent, { ...settings, retries: 0 });
    for (let i = 0; i < 3; i++) await timedOut(callTimeouts, true);
    expect(callTimeouts.circuit).toBe('open');
  });

  it("counts a caller's deadline against the breaker once the provider had long enough to answer", async () => {
    let now = 0;
    const silent: ProviderAdapter = {
      provider: 'provider_b',
      search: (q) =>
        new Promise((_, reject) => q.signal.addEventListener('abort', () => reject(q.signal.reason as Error))),
    };
    const adapter = new ResilientAdapter(silent, { ...settings, retries: 0 }, () => now);
    const cutAfter = async (ms: number) => {
      const controller = new AbortController();
      const pending = adapter.search(query(controller.signal));
      await new Promise((r) => setImmediate(r));
      now += ms;
      controller.abort(new Error('deadline'));
      await expect(pending).rejects.toThrow('deadline');
    };
    for (let i = 0; i < 5; i++) await cutAfter(settings.stalledAfterMs - 1);
    expect(adapter.circuit).toBe('closed');
    for (let i = 0; i < 3; i++) await cutAfter(settings.stalledAfterMs);
    expect(adapter.circuit).toBe('open');
  });

  it('lets one trial call through a half-open circuit at a time', async () => {
    let now = 0;
    let answer: (() => void) | undefined;
    let calls = 0;
    const adapter = new ResilientAdapter(
      {
        provider: 'provider_a',
        search: () => {
          calls += 1;
          if (calls <= 3) return Promise.reject(new ProviderResponseError('provider_a', 503, 'down'));
          return new Promise((resolve) => (answer = () => resolve([])));
        },
      },
      { ...settings, retries: 0 },
      () => now,
    );
    for (let i = 0; i < 3; i++) await expect(adapter.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    now = 1001;
    const trial = adapter.search(query());
    await expect(adapter.search(query())).rejects.toBeInstanceOf(CircuitOpenError);
    await new Promise((r) => setImmediate(r));
    answer!();
    await expect(trial).resolves.toEqual([]);
    expect(adapter.circuit).toBe('closed');
    expect(calls).toBe(4);
  });

  it('never counts a query the provider refuses as malformed; counts a refused caller', async () => {
    const refused = fakeProvider([400, 422, 400, 422, 400]);
    const queries = new ResilientAdapter(refused.adapter, { ...settings, retries: 0 });
    for (let i = 0; i < 5; i++) await expect(queries.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    expect(queries.circuit).toBe('closed');
    const credentials = fakeProvider([401]);
    const caller = new ResilientAdapter(credentials.adapter, { ...settings, retries: 0 });
    for (let i = 0; i < 3; i++) await expect(caller.search(query())).rejects.toBeInstanceOf(ProviderResponseError);
    expect(caller.circuit).toBe('open');
  });

  it('classifies failures', () => {
    expect(isTransient(new ProviderResponseError('provider_a', 503, 'x'))).toBe(true);
    expect(isTransient(new ProviderResponseError('provider_a', 429, 'x'))).toBe(true);
    expect(isTransient(new ProviderResponseError('provider_a', 404, 'x'))).toBe(false);
    expect(isTransient(new TypeError('fetch failed'))).toBe(true);
  });
});
