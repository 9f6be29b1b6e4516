// Integration test against the real PostgreSQL: the refresh planner's passes (one at a time,
// requests served by the next pass, one per interval on schedule), their rows and the sweeps
// staged in the outbox with them.
import type { RefreshFetchRequested } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { DrainRegistry } from '@jobs/service-kit';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '../testing/outbox-stub.js';
import { RefreshPlanner } from './refresh-planner.js';

const logger = { info: () => undefined, warn: () => undefined } as unknown as Logger;
const drains = { register: () => undefined } as unknown as DrainRegistry;
const MIN = 60_000;
let db: ThrowawayDatabase;
let planner: RefreshPlanner;

beforeAll(async () => {
  db = await throwawayDatabase('planner');
  planner = new RefreshPlanner(db.prisma, outboxStub(), { intervalMs: MIN, buckets: 10 }, logger, drains);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const sweepsOf = async (passId: string) =>
  (await db.prisma.outboxMessage.findMany({ where: { topic: 'refresh.fetch.requested' } })).map((m) => m.value as unknown as RefreshFetchRequested.Value).filter((v) => v.refresh_id === passId);
const finishAll = (passId: string) => db.prisma.refreshSweep.updateMany({ where: { passId }, data: { finishedAt: new Date() } });

describe('RefreshPlanner', () => {
  it('plans a pass whole: its rows and its sweeps, never a second while it runs; a request waits for the next pass', async () => {
    const t0 = new Date('2026-11-24T10:00:00.000Z');
    const first = await planner.tryStart(t0);
    expect(first).toHaveProperty('started');
    const passId = (first as { started: string }).started;
    const sweeps = await sweepsOf(passId);
    expect(sweeps.map((s) => s.kind).sort()).toEqual(['catalog', ...Array(6).fill('new_listings')].sort());
    expect(await db.prisma.refreshSweep.count({ where: { passId } })).toBe(sweeps.length);

    // running: neither the schedule nor a request starts another one
    expect(await planner.tryStart(new Date(t0.getTime() + 2 * MIN))).toEqual({ waiting: 'running' });
    await db.prisma.refreshRequest.create({ data: { id: 'rfr_operator_1', requestedAt: new Date(t0.getTime() + 2 * MIN) } });
    expect(await planner.tryStart(new Date(t0.getTime() + 2 * MIN))).toEqual({ waiting: 'running' });

    // once every sweep ended, the waiting request is served at once, under its own id, by the next bucket
    await finishAll(passId);
    expect(await planner.tryStart(new Date(t0.getTime() + 2 * MIN + 1))).toEqual({ started: 'rfr_operator_1' });
    expect(await db.prisma.refreshRequest.findUniqueOrThrow({ where: { id: 'rfr_operator_1' } })).toMatchObject({ passId: 'rfr_operator_1' });
    expect((await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: 'rfr_operator_1' } })).bucket).toBe(1);
    // outside bucket 0 the own crawler is read through its change feed: since the lag and two
    // intervals back, and this pass comes two intervals after the last, so from the last one's
    const own = (await sweepsOf('rfr_operator_1')).filter((s) => s.provider === 'own_index');
    expect(own).toEqual([expect.objectContaining({ kind: 'catalog_changes', changed_since: t0.getTime() + MIN - 4 * MIN })]);
    await finishAll('rfr_operator_1');

    // on schedule: not before the interval has passed since the last start
    expect(await planner.tryStart(new Date(t0.getTime() + 2 * MIN + 30_000))).toEqual({ waiting: 'interval' });
    expect(await planner.tryStart(new Date(t0.getTime() + 3 * MIN + 1))).toHaveProperty('started');
  });

  it('a pass whose sweep never ended stops holding the next one back after the stale bound', async () => {
    const last = await db.prisma.refreshPass.findFirstOrThrow({ orderBy: { startedAt: 'desc' } });
    expect(await planner.tryStart(new Date(last.startedAt.getTime() + 2 * MIN))).toEqual({ waiting: 'running' });
    expect(await planner.tryStart(new Date(last.startedAt.getTime() + 11 * MIN))).toHaveProperty('started');
  });
});
