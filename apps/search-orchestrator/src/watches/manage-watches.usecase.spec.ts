import { Redis } from 'ioredis';
import { examples, type JobLifecycleChanged, type OrchestratorQueryRequested, type WatchStatus } from '@jobs/contracts';
import type { CursorCodec } from '@jobs/cursors';
import { QueryFailure, type KafkaPublisher } from '@jobs/nest-kafka';
import { matchJobChange } from './watch-events.js';
import { WatchIndex } from './watch-index.js';
import { ManageWatchesUseCase } from './manage-watches.usecase.js';
import type { WatchRecord } from './watch.js';
import type { WatchOwner, WatchStore } from './watch.store.js';

/**
 * The watches table as the use case relies on it (createOnce, setStatus, delete, allLive, byIds), in memory;
 * `now` is the database clock.
 */
class MemoryWatchStore {
  readonly rows = new Map<string, WatchRecord>();
  now = new Date('2026-10-01T00:00:00.000Z');

  async createOnce(watch: Omit<WatchRecord, 'createdAt' | 'activeSince'>): Promise<WatchRecord> {
    if (!this.rows.has(watch.id)) this.rows.set(watch.id, { ...watch, createdAt: this.now, activeSince: this.now });
    return this.rows.get(watch.id)!;
  }

  private owned(owner: WatchOwner, id: string): WatchRecord | undefined {
    const row = this.rows.get(id);
    return row && row.accountId === owner.accountId && row.mode === owner.mode ? row : undefined;
  }

  async setStatus(owner: WatchOwner, id: string, status: WatchStatus): Promise<WatchRecord | null> {
    const row = this.owned(owner, id);
    if (!row) return null;
    if (row.status !== status)
      this.rows.set(id, { ...row, status, activeSince: status === 'active' ? this.now : row.activeSince });
    return this.rows.get(id)!;
  }

  async delete(owner: WatchOwner, id: string): Promise<boolean> {
    return this.owned(owner, id) !== undefined && this.rows.delete(id);
  }

  async allLive(): Promise<WatchRecord[]> {
    return [...this.rows.values()].filter((w) => w.status === 'active' && w.mode === 'live');
  }

  async byIds(ids: readonly string[]): Promise<WatchRecord[]> {
    return ids.flatMap((id) => (this.rows.has(id) ? [this.rows.get(id)!] : []));
  }
}

/** What the use case sends on Kafka (only the stop of a watch, to billing). */
class RecordingPublisher {
  readonly sent: Array<{ topic: string; value: unknown }> = [];
  async publish(topic: { name: string }, value: unknown): Promise<void> {
    this.sent.push({ topic: topic.name, value });
  }
}

/** The one Redis every replica shares: its own database (the dev stack's 0 and the tests' stack's 1 are left alone). */
const redis = new Redis(process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379', { lazyConnect: true, db: 12 });
beforeAll(() => redis.connect());
afterAll(() => redis.quit());

const cursors = {} as CursorCodec;

function message(
  query: OrchestratorQueryRequested.Value['query'],
  accountId = 'acc_1',
  mode: 'live' | 'test' = 'live',
): OrchestratorQueryRequested.Value {
  return {
    v: 1,
    query_id: 'req_q1',
    account_id: accountId,
    plan: 'pro',
    mode,
    providers_enabled: ['own_index'],
    query,
  };
}

function setStatus(
  useCase: ManageWatchesUseCase,
  watchId: string,
  status: WatchStatus,
  accountId = 'acc_1',
  mode: 'live' | 'test' = 'live',
) {
  const msg = message({ kind: 'watch.set_status', watch_id: watchId, status }, accountId, mode);
  return useCase.setStatus(msg, msg.query as Extract<typeof msg.query, { kind: 'watch.set_status' }>);
}

function opened(occurredAt: string): JobLifecycleChanged.Value {
  const base = examples.jobLifecycleChanged();
  return { ...base, change_id: `chg_${occurredAt}`, change: 'opened', changed_fields: [], occurred_at: occurredAt };
}

describe('ManageWatchesUseCase: pause and resume', () => {
  let store: MemoryWatchStore;
  /** what the gateway's query reaches (one orchestrator replica) */
  let useCase: ManageWatchesUseCase;
  /** the matchers of two orchestrator replicas, each with its own in-memory index */
  let replicas: WatchIndex[];
  let watchId: string;
  let publisher: RecordingPublisher;

  beforeEach(async () => {
    store = new MemoryWatchStore();
    await redis.flushdb();
    publisher = new RecordingPublisher();
    const index = () => new WatchIndex(store as unknown as WatchStore, redis);
    useCase = new ManageWatchesUseCase(
      store as unknown as WatchStore,
      index(),
      publisher as unknown as KafkaPublisher,
      cursors,
    );
    replicas = [index(), index()];
    const domain = examples.jobLifecycleChanged().job.company.domain!;
    const msg = message({
      kind: 'watch.create',
      watch_id: 'wat_1',
      request: { type: 'company', domain, webhook_url: 'https://hooks.example.com/jobs', events: ['job.opened'] },
    });
    watchId = (await useCase.create(msg, msg.query as Extract<typeof msg.query, { kind: 'watch.create' }>)).id;
  });

  /** The ids of the watches each replica's matcher would match a job change of the watched company against. */
  const candidates = () =>
    Promise.all(
      replicas.map(async (r) =>
        (await r.current()).forJob('Engineer', examples.jobLifecycleChanged().job.company.domain).map((w) => w.id),
      ),
    );

  it('pauses a watch: answered paused, and every replica drops it from its index before the answer', async () => {
    expect(await candidates()).toEqual([[watchId], [watchId]]);
    const paused = await setStatus(useCase, watchId, 'paused');
    expect(paused).toMatchObject({ id: watchId, status: 'paused' });
    expect(await candidates()).toEqual([[], []]);
  });

  it('resumes a watch: back in every replica, matched only for changes that occurred since the resume', async () => {
    await setStatus(useCase, watchId, 'paused');
    await candidates();
    store.now = new Date('2026-10-02T00:00:00.000Z');
    const resumed = await setStatus(useCase, watchId, 'active');
    expect(resumed).toMatchObject({ id: watchId, status: 'active', created_at: '2026-10-01T00:00:00.000Z' });
    for (const replica of replicas) {
      const watches = (await replica.current()).forJob('Engineer', examples.jobLifecycleChanged().job.company.domain);
      expect(watches.map((w) => w.id)).toEqual([watchId]);
      // a change made while the watch was paused, matched late (after the resume), is not replayed
      expect(matchJobChange(watches, opened('2026-10-01T12:00:00.000Z')).events).toEqual([]);
      expect(matchJobChange(watches, opened('2026-10-02T00:00:01.000Z')).events).toHaveLength(1);
    }
  });

  it(
    'setting the status a watch has changes nothing (a second ' +
      'resume does not move active_since), and is answered with the ' +
      'watch',
    async () => {
      store.now = new Date('2026-10-03T00:00:00.000Z');
      expect(await setStatus(useCase, watchId, 'active')).toMatchObject({ status: 'active' });
      expect(store.rows.get(watchId)!.activeSince.toISOString()).toBe('2026-10-01T00:00:00.000Z');
      await setStatus(useCase, watchId, 'paused');
      expect(await setStatus(useCase, watchId, 'paused')).toMatchObject({ status: 'paused' });
    },
  );

  it(
    'moves the version even when nothing changed: a redelivered ' +
      'query whose first run died before the move still reaches the ' +
      'matchers',
    async () => {
      await candidates();
      // the first run stored the pause, then the process died before the version moved
      await store.setStatus({ accountId: 'acc_1', mode: 'live' }, watchId, 'paused');
      expect(await candidates()).toEqual([[watchId], [watchId]]);
      await setStatus(useCase, watchId, 'paused');
      expect(await candidates()).toEqual([[], []]);
    },
  );

  it('a Redis that lost the version and the changes still makes every replica reload', async () => {
    await candidates();
    await redis.flushdb();
    await candidates();
    await setStatus(useCase, watchId, 'paused');
    expect(await candidates()).toEqual([[], []]);
    await redis.flushdb();
    await setStatus(useCase, watchId, 'active');
    expect(await candidates()).toEqual([[watchId], [watchId]]);
  });

  it("refuses an unknown watch and another account's watch as not found, changing nothing", async () => {
    await expect(setStatus(useCase, 'wat_unknown', 'paused')).rejects.toMatchObject(
      new QueryFailure('not_found', 'No watch wat_unknown.'),
    );
    await expect(setStatus(useCase, watchId, 'paused', 'acc_2')).rejects.toMatchObject({ code: 'not_found' });
    expect(store.rows.get(watchId)!.status).toBe('active');
  });

  const stops = () =>
    publisher.sent.map(({ topic, value }) => [topic, (value as { watch_stopped: unknown }).watch_stopped]);
  const remove = (id: string) => {
    const del = message({ kind: 'watch.delete', watch_id: id });
    return useCase.delete(del, del.query as Extract<typeof del.query, { kind: 'watch.delete' }>);
  };

  it('tells billing of a pause and a delete (its uncharged job.opened events go), not of a resume', async () => {
    const before = new Date().toISOString();
    await setStatus(useCase, watchId, 'paused');
    await setStatus(useCase, watchId, 'active');
    await remove(watchId);
    const at = expect.any(String) as unknown as string;
    expect(stops()).toEqual([
      ['event.charge.requested', { watch_id: watchId, status: 'paused', stopped_at: at }],
      ['event.charge.requested', { watch_id: watchId, status: 'deleted', stopped_at: at }],
    ]);
    // the moment of the stop, taken within the call
    for (const [, stop] of stops()) {
      expect((stop as { stopped_at: string }).stopped_at >= before).toBe(true);
      expect((stop as { stopped_at: string }).stopped_at <= new Date().toISOString()).toBe(true);
    }
    expect(publisher.sent[0]!.value).toMatchObject({ v: 1, account_id: 'acc_1' });
  });

  it(
    'a delete redelivered after its first run deleted the watch and died still moves the version and tells ' +
      'billing, then answers not found',
    async () => {
      await candidates();
      await store.delete({ accountId: 'acc_1', mode: 'live' }, watchId);
      expect(await candidates()).toEqual([[watchId], [watchId]]);
      await expect(remove(watchId)).rejects.toMatchObject({ code: 'not_found' });
      expect(await candidates()).toEqual([[], []]);
      expect(stops()).toEqual([
        ['event.charge.requested', { watch_id: watchId, status: 'deleted', stopped_at: expect.any(String) }],
      ]);
    },
  );

  it("refuses the account's live watch to its test key (pause and delete), changing nothing", async () => {
    await expect(setStatus(useCase, watchId, 'paused', 'acc_1', 'test')).rejects.toMatchObject({ code: 'not_found' });
    const del = message({ kind: 'watch.delete', watch_id: watchId }, 'acc_1', 'test');
    await expect(
      useCase.delete(del, del.query as Extract<typeof del.query, { kind: 'watch.delete' }>),
    ).rejects.toMatchObject({ code: 'not_found' });
    expect(store.rows.get(watchId)!.status).toBe('active');
  });
});

describe('ManageWatchesUseCase passes on what a later version added', () => {
  it('stores and answers filters it does not know, as the gateway sent them', async () => {
    const store = new MemoryWatchStore();
    const index = new WatchIndex(store as unknown as WatchStore, redis);
    const publisher = new RecordingPublisher() as unknown as KafkaPublisher;
    const useCase = new ManageWatchesUseCase(store as unknown as WatchStore, index, publisher, cursors);
    const filters = { title_or: ['engineer'], salary_currency: 'EUR' };
    const msg = message({
      kind: 'watch.create',
      watch_id: 'wat_next',
      request: { type: 'search', filters, webhook_url: 'https://hooks.example.com/jobs', events: ['job.opened'] },
    } as OrchestratorQueryRequested.Value['query']);
    const watch = await useCase.create(msg, msg.query as Extract<typeof msg.query, { kind: 'watch.create' }>);
    expect(store.rows.get('wat_next')?.filters).toEqual(filters);
    expect(watch.filters).toEqual(filters);
  });
});
