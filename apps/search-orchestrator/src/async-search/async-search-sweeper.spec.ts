// Integration spec on a throwaway PostgreSQL database: which searches a sweep takes up.
import type { ProviderSlug } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { DrainRegistry } from '@jobs/service-kit';
import type { AsyncPipelineProbe } from './async-pipeline.probe.js';
import { AsyncSearchSweeper } from './async-search-sweeper.js';
import type { AsyncSearchSteps } from './async-search.steps.js';
import { ResumeSearchesUseCase } from './resume-searches.usecase.js';

describe('AsyncSearchSweeper on PostgreSQL', () => {
  let db: ThrowawayDatabase;

  beforeAll(async () => {
    db = await throwawayDatabase('orchestrator');
  }, 60_000);
  afterAll(() => db?.drop());

  const account = (id: string, credits: number, plan: 'pro' | 'free' = 'pro') =>
    db.prisma.account.create({
      data: {
        id,
        plan,
        creditsRemaining: credits,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });
  /** A started search of one provider, last moved at `progressAt`. */
  const search = (
    id: string,
    accountId: string,
    progressAt: Date,
    { status = 'on_hold', provider = 'own_index' }: { status?: 'on_hold' | 'running'; provider?: ProviderSlug } = {},
  ) =>
    db.prisma.asyncSearch.create({
      data: {
        id,
        accountId,
        mode: 'live',
        providersEnabled: [provider],
        request: {},
        status,
        waves: [[provider]],
        requestId: `req_${id}`,
        asOf: progressAt,
        progressAt,
        startedAt: progressAt,
      },
    });
  const onHold = (id: string, accountId: string, progressAt: Date, status: 'on_hold' | 'running' = 'on_hold') =>
    search(id, accountId, progressAt, { status });
  /** A leg fetching its chunk (0 unless given) at try `attempt`, waiting for `retryAt` when set. */
  const fetchingLeg = (
    searchId: string,
    provider: ProviderSlug,
    { attempt, chunk = 0, retryAt = null }: { attempt: number; chunk?: number; retryAt?: Date | null },
  ) =>
    db.prisma.asyncSearchLeg.create({
      data: {
        searchId,
        provider,
        wave: 0,
        state: 'fetching',
        chunk,
        attempt,
        position: { kind: 'pages', page: null },
        retryAt,
      },
    });

  /** A sweeper on the throwaway database with stubs: steps that start nothing, no probe, resume and error as given. */
  const sweeperWith = ({
    steps = { startWaiting: async () => undefined, kick: () => undefined },
    probe = {},
    resume = async () => undefined,
    error = () => undefined,
  }: {
    steps?: object;
    probe?: object;
    resume?: (id: string) => Promise<void>;
    error?: (context: unknown, message: string) => void;
  }) =>
    new AsyncSearchSweeper(
      db.prisma,
      steps as AsyncSearchSteps,
      probe as AsyncPipelineProbe,
      { resume } as unknown as ResumeSearchesUseCase,
      { warn: () => undefined, info: () => undefined, error } as never,
      { register: () => undefined } as unknown as DrainRegistry,
    );

  it('resumes the searches on hold of accounts with credits again, oldest first, past any number without', async () => {
    await account('acc_broke', 0);
    await account('acc_topped_up', 50);
    const longAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 30; i++) await onHold(`srch_broke${i}`, 'acc_broke', new Date(longAgo.getTime() - i * 1_000));
    await onHold('srch_topped_up_newer', 'acc_topped_up', longAgo);
    await onHold('srch_topped_up_older', 'acc_topped_up', new Date(longAgo.getTime() - 60_000));

    const resumed: string[] = [];
    const sweeper = sweeperWith({ resume: async (id: string) => void resumed.push(id) });
    expect(await sweeper.sweep()).toBe(2);
    expect(resumed).toEqual(['srch_topped_up_older', 'srch_topped_up_newer']);
  });

  it('asks a failed chunk again once due, not before; a search whose re-drive fails holds up no other', async () => {
    await account('acc_retry', 50);
    const now = Date.now();
    const running = (id: string, progressAt: Date) =>
      search(id, 'acc_retry', progressAt, { status: 'running', provider: 'provider_b' });
    const leg = (searchId: string, retryAt: Date | null) =>
      fetchingLeg(searchId, 'provider_b', { attempt: 1, retryAt });
    await running('srch_due', new Date(now - 5_000));
    await leg('srch_due', new Date(now - 1_000));
    await running('srch_later', new Date(now - 5_000));
    await leg('srch_later', new Date(now + 10_000));
    // stalled long ago: re-driven, the first one's re-drive throws
    await running('srch_broken', new Date(now - 3_600_000));
    await running('srch_stalled', new Date(now - 3_500_000));

    const asked: string[] = [];
    const loaded = (id: string) => ({ row: { id }, status: 'running' });
    const steps = {
      startWaiting: async () => undefined,
      kick: () => undefined,
      lock: async (_tx: unknown, id: string) => {
        if (id === 'srch_broken') throw new Error('its stored request no longer reads');
        return loaded(id);
      },
      askChunk: async (_tx: unknown, search: { row: { id: string } }, ask: { attempt: number }) =>
        void asked.push(`${search.row.id}:${ask.attempt}`),
      askCharge: async () => undefined,
      advance: async () => undefined,
    };
    const logged: string[] = [];
    const sweeper = sweeperWith({
      steps,
      probe: { holds: async () => false },
      error: (_: unknown, m: string) => void logged.push(m),
    });
    await sweeper.sweep(now);
    expect(asked.sort()).toEqual(['srch_due:1']);
    const legs = await db.prisma.asyncSearchLeg.findMany({ orderBy: { searchId: 'asc' } });
    expect(legs.map((l) => [l.searchId, l.retryAt === null])).toEqual([
      ['srch_due', true],
      ['srch_later', false],
    ]);
    expect(logged).toEqual(['async search could not be re-driven; looked at again later']);
    // the stalled search behind the broken one was re-driven: its progress moved
    const stalled = await db.prisma.asyncSearch.findUniqueOrThrow({ where: { id: 'srch_stalled' } });
    expect(stalled.progressAt.getTime()).toBeGreaterThan(now - 60_000);
  });

  it('asks a lost or stuck chunk as its next try, ending its leg if its last try was lost or stuck', async () => {
    await account('acc_lost', 50);
    const now = Date.now();
    // idle past STALL_MS (the probe is asked), or past STUCK_MS (asked again whatever a hop holds)
    const idle = new Date(now - 60_000);
    const stuck = new Date(now - 3_600_000);
    for (const [id, attempt, progressAt] of [
      ['srch_lost_once', 0, idle],
      ['srch_lost_last', 2, idle],
      ['srch_stuck', 0, stuck],
      ['srch_stuck_last', 2, stuck],
    ] as const) {
      await search(id, 'acc_lost', progressAt, { status: 'running', provider: 'provider_c' });
      await fetchingLeg(id, 'provider_c', { attempt, chunk: 4 });
    }
    const asked: string[] = [];
    const advanced: string[] = [];
    const steps = {
      startWaiting: async () => undefined,
      kick: () => undefined,
      lock: async (_tx: unknown, id: string) => ({ row: { id }, status: 'running' }),
      askChunk: async (_tx: unknown, search: { row: { id: string } }, ask: { chunk: number; attempt: number }) =>
        void asked.push(`${search.row.id}:${ask.chunk}:${ask.attempt}`),
      askCharge: async () => undefined,
      advance: async (_tx: unknown, search: { row: { id: string } }) => void advanced.push(search.row.id),
    };
    const probed: string[] = [];
    const probe = {
      holds: async (_db: unknown, { searchId }: { searchId: string }) => {
        probed.push(searchId);
        return false;
      },
    };
    const errors: string[] = [];
    await sweeperWith({ steps, probe, error: (_, m) => void errors.push(m) }).sweep(now);
    expect(errors).toEqual([]);
    expect(probed.sort()).toEqual(['srch_lost_last', 'srch_lost_once']);
    // a lost chunk, and one held past STUCK_MS (a hop that never drains), not looked for: its next try
    expect(asked.filter((a) => a.startsWith('srch_lost') || a.startsWith('srch_stuck')).sort()).toEqual([
      'srch_lost_once:4:1',
      'srch_stuck:4:1',
    ]);
    const legs = await db.prisma.asyncSearchLeg.findMany({
      where: { searchId: { in: ['srch_lost_once', 'srch_lost_last', 'srch_stuck', 'srch_stuck_last'] } },
      orderBy: { searchId: 'asc' },
    });
    expect(legs.map((l) => [l.searchId, l.state, l.attempt, l.failure])).toEqual([
      ['srch_lost_last', 'failed', 2, 'provider_error'],
      ['srch_lost_once', 'fetching', 1, null],
      ['srch_stuck', 'fetching', 1, null],
      ['srch_stuck_last', 'failed', 2, 'provider_error'],
    ]);
    // each search then takes its next step: the ones whose only leg failed finish
    expect(advanced).toEqual(
      expect.arrayContaining(['srch_lost_last', 'srch_lost_once', 'srch_stuck', 'srch_stuck_last']),
    );
  });

  it('resumes every search on hold of an account with credits, by sweep or top-up (each in its cap)', async () => {
    await account('acc_room', 10, 'free');
    const longAgo = new Date(Date.now() - 3_600_000);
    await onHold('srch_room_held', 'acc_room', longAgo);
    await onHold('srch_room_held2', 'acc_room', new Date(longAgo.getTime() + 1_000));

    const resumed: string[] = [];
    const sweeper = sweeperWith({ resume: async (id: string) => void resumed.push(id) });
    await sweeper.sweep();
    expect(resumed.filter((id) => id.startsWith('srch_room'))).toEqual(['srch_room_held', 'srch_room_held2']);

    // a top-up puts them in the pool's queue, on hold until they have a place
    const steps = {
      lock: async (tx: { asyncSearch: typeof db.prisma.asyncSearch }, id: string) => {
        const row = await tx.asyncSearch.findUniqueOrThrow({ where: { id } });
        return { row, status: row.status };
      },
      startWaiting: async () => undefined,
      kick: () => undefined,
    };
    await new ResumeSearchesUseCase(db.prisma, steps as unknown as AsyncSearchSteps).forAccount('acc_room');
    const rows = await db.prisma.asyncSearch.findMany({ where: { accountId: 'acc_room' }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.id, r.status, r.resumeWantedAt !== null])).toEqual([
      ['srch_room_held', 'on_hold', true],
      ['srch_room_held2', 'on_hold', true],
    ]);
    // waiting for a place, they are not resumed again
    resumed.length = 0;
    await sweeper.sweep();
    expect(resumed.filter((id) => id.startsWith('srch_room'))).toEqual([]);
  });
});
