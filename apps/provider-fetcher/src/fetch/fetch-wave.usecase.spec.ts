import { jest } from '@jest/globals';
import { examples, type ProviderFetchRequested, type ProviderRecordsFetched, type ProviderSlug } from '@jobs/contracts';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { ProviderCalls, ProviderCallResult } from '../calls/provider-calls.js';
import { FetchWaveUseCase } from './fetch-wave.usecase.js';

/** How each simulated partner answers: ok after `ms`, or nothing until the deadline (a timeout). */
type Behaviour = { ms: number } | 'hangs';

function wave(behaviours: Partial<Record<ProviderSlug, Behaviour>>, budgetMs: number) {
  const started = Date.now();
  const published: Array<{ at: number; providers: string[]; outcomes: string[] }> = [];
  let deadline: Promise<unknown> | undefined;
  const calls = {
    call: async (provider: ProviderSlug, _query: unknown, deadlineAt: number): Promise<ProviderCallResult> => {
      const behaviour = behaviours[provider]!;
      if (behaviour === 'hangs') {
        // one timer for every hanging call: they reach the deadline in the same turn (two timers
        // computed a millisecond apart may fire in different turns of the event loop)
        deadline ??= new Promise((r) => setTimeout(r, deadlineAt - Date.now()));
        await deadline;
        return { outcome: 'provider_timeout', records: [] };
      }
      await new Promise((r) => setTimeout(r, behaviour.ms));
      return { outcome: 'ok', records: [{ ...examples.normalizedRecord(), provider }] };
    },
  } as unknown as ProviderCalls;
  const publisher = {
    publish: async (_topic: unknown, value: ProviderRecordsFetched.Value) => {
      published.push({
        at: Date.now() - started,
        providers: value.batches.map((b) => b.provider),
        outcomes: value.batches.map((b) => b.outcome),
      });
    },
  } as unknown as KafkaPublisher;
  const message: ProviderFetchRequested.Value = {
    v: 1,
    search_id: 'req_wave0000000001',
    providers: (Object.keys(behaviours) as ProviderSlug[]).map((provider) => ({ provider })),
    filters: {},
    want: 10,
    deadline_at: started + budgetMs,
  };
  const useCase = new FetchWaveUseCase(calls, publisher);
  return { run: () => useCase.execute(message), published };
}

/**
 * Runs waves on fake timers: every partner's latency and every timer of the use case fire in
 * their order on the clock, whatever the machine's load (on real timers a starved CI process let
 * a 150 ms partner land in the same turn as a 20 ms grace timer).
 */
async function onTheClock(...runs: Array<Promise<void>>): Promise<void> {
  await jest.runAllTimersAsync();
  await Promise.all(runs);
}

describe('FetchWaveUseCase', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('sends a wave that is all in early as one message, in the order the providers were asked', async () => {
    const { run, published } = wave({ provider_d: { ms: 30 }, provider_a: { ms: 5 }, provider_c: { ms: 15 } }, 1_000);
    await onTheClock(run());
    expect(published).toEqual([
      { at: expect.any(Number), providers: ['provider_d', 'provider_a', 'provider_c'], outcomes: ['ok', 'ok', 'ok'] },
    ]);
    expect(published[0]!.at).toBe(30);
  });

  it(
    'does not hold back the partners that answered for one that ' +
      'misses the deadline: they go at half the budget, the ' +
      'straggler at the deadline',
    async () => {
      const { run, published } = wave(
        { provider_a: { ms: 5 }, provider_b: 'hangs', provider_d: { ms: 20 }, provider_f: 'hangs' },
        400,
      );
      await onTheClock(run());
      expect(published.map(({ providers, outcomes }) => ({ providers, outcomes }))).toEqual([
        { providers: ['provider_a', 'provider_d'], outcomes: ['ok', 'ok'] },
        { providers: ['provider_b', 'provider_f'], outcomes: ['provider_timeout', 'provider_timeout'] },
      ]);
      // half the budget, well before the deadline: dedupe merges them while the straggler is still out
      expect(published[0]!.at).toBe(200);
      expect(published[1]!.at).toBe(400);
    },
  );

  it('sends an answer that comes after half the budget as soon as it comes, not at the deadline', async () => {
    const { run, published } = wave({ provider_a: { ms: 5 }, provider_e: { ms: 260 }, provider_b: 'hangs' }, 400);
    await onTheClock(run());
    expect(published.map((p) => p.providers)).toEqual([['provider_a'], ['provider_e'], ['provider_b']]);
    expect(published[1]!.at).toBe(260);
    expect(published[2]!.at).toBe(400);
  });

  it(
    'lightly loaded, sends the others without a last partner that ' +
      'is still out 20 ms after them, so their merge starts while ' +
      'it answers',
    async () => {
      const { run, published } = wave(
        { provider_a: { ms: 5 }, provider_c: { ms: 15 }, provider_d: { ms: 150 } },
        1_000,
      );
      await onTheClock(run());
      expect(published.map((p) => p.providers)).toEqual([['provider_a', 'provider_c'], ['provider_d']]);
      // the second answer (15 ms) and the grace after it (20 ms)
      expect(published[0]!.at).toBe(35);
      expect(published[1]!.at).toBe(150);
    },
  );

  it('under load (three waves in flight), keeps such a wave in one message', async () => {
    const { run, published } = wave({ provider_a: { ms: 5 }, provider_c: { ms: 15 }, provider_d: { ms: 150 } }, 1_000);
    await onTheClock(run(), run(), run());
    // the first two waves were lightly loaded when they started, the third was not
    expect(published.filter((p) => p.providers.length === 3).map((p) => p.at)).toEqual([150]);
    expect(published.filter((p) => p.providers.length === 2).map((p) => p.at)).toEqual([35, 35]);
    expect(published).toHaveLength(5);
  });
});

describe('FetchWaveUseCase, the providers reported totals', () => {
  it(
    'passes on the total a partner reported for its first page ' +
      'read, and none for a failed call or a partner that said none',
    async () => {
      const reported: Partial<Record<ProviderSlug, number>> = { provider_a: 240, provider_b: 0 };
      const calls = {
        call: async (provider: ProviderSlug, query: { paging: { totals?: number[] } }): Promise<ProviderCallResult> => {
          if (provider === 'provider_e') return { outcome: 'provider_error', records: [] };
          const total = reported[provider];
          if (total !== undefined) query.paging.totals = [total, total + 1];
          return { outcome: 'ok', records: [] };
        },
      } as unknown as ProviderCalls;
      const batches: ProviderRecordsFetched.FetchedBatch[] = [];
      const publisher = {
        publish: async (_topic: unknown, value: ProviderRecordsFetched.Value) => void batches.push(...value.batches),
      } as unknown as KafkaPublisher;
      const providers: ProviderSlug[] = ['provider_a', 'provider_b', 'provider_c', 'provider_e'];
      await new FetchWaveUseCase(calls, publisher).execute({
        v: 1,
        search_id: 'req_wave0000000002',
        providers: providers.map((provider) => ({ provider })),
        filters: {},
        want: 1,
        deadline_at: Date.now() + 5_000,
      });
      expect(Object.fromEntries(batches.map((b) => [b.provider, b.total]))).toEqual({
        provider_a: 240,
        provider_b: 0,
        provider_c: undefined,
        provider_e: undefined,
      });
    },
  );

  it('sends no records for a count-only wave (a dry run), only the totals', async () => {
    const calls = {
      call: async (provider: ProviderSlug, query: { paging: { totals?: number[] } }): Promise<ProviderCallResult> => {
        query.paging.totals = [17];
        return { outcome: 'ok', records: [{ ...examples.normalizedRecord(), provider }] };
      },
    } as unknown as ProviderCalls;
    const batches: ProviderRecordsFetched.FetchedBatch[] = [];
    const publisher = {
      publish: async (_topic: unknown, value: ProviderRecordsFetched.Value) => void batches.push(...value.batches),
    } as unknown as KafkaPublisher;
    const message = {
      v: 1 as const,
      search_id: 'req_wave0000000003',
      providers: [{ provider: 'provider_a' as const }],
      filters: {},
      want: 1,
      deadline_at: Date.now() + 5_000,
    };
    await new FetchWaveUseCase(calls, publisher).execute({ ...message, count_only: true });
    await new FetchWaveUseCase(calls, publisher).execute(message);
    expect(batches.map((b) => [b.records.length, b.total])).toEqual([
      [0, 17],
      [1, 17],
    ]);
  });
});
