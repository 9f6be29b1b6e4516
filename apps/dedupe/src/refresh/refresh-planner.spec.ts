// Integration test against the real PostgreSQL: the refresh planner's passes and rounds (one of
// each kind at a time, requests served by the next of each, one per interval on schedule), their
// rows and the sweeps staged in the outbox with them.
import type { RefreshFetchRequested } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { DrainRegistry } from '@jobs/service-kit';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
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
  (await db.prisma.outboxMessage.findMany({ where: { topic: { in: ['refresh.fetch.requested', 'refresh.pass.fetch.requested'] } } })).map((m) => JSON.parse(m.value) as RefreshFetchRequested.Value).filter((v) => v.refresh_id === passId);
const finishAll = (passId: string) => db.prisma.refreshSweep.updateMany({ where: { passId }, data: { finishedAt: new Date() } });

describe('RefreshPlanner', () => {
  it('plans a pass and a round whole, never a second of a kind while one runs, neither waiting for the other; a request is served by the next of each', async () => {
    const t0 = new Date('2026-11-24T10:00:00.000Z');
    const first = await planner.tryStart(t0);
    const passId = (first.pass as { started: string }).started;
    const roundId = (first.round as { started: string }).started;
    expect(passId).toMatch(/^rfr_/);
    expect(roundId).toMatch(/^rfr_/);
    // a pass reads what moved; the first round (bucket 0) re-reads the own crawler's whole catalog
    expect((await sweepsOf(passId)).map((s) => s.kind).sort()).toEqual(['catalog_changes', ...Array(6).fill('new_listings')].sort());
    expect((await sweepsOf(roundId)).map((s) => s.kind)).toEqual(['catalog']);
    expect(await db.prisma.refreshSweep.count({ where: { passId } })).toBe(7);
    // on topics of their own, so neither waits behind the other's sweeps
    const topics = async (id: string) => new Set((await db.prisma.outboxMessage.findMany({ where: { topic: { startsWith: 'refresh.' } } })).filter((m) => (JSON.parse(m.value) as { refresh_id?: string }).refresh_id === id).map((m) => m.topic));
    expect(await topics(passId)).toEqual(new Set(['refresh.pass.fetch.requested']));
    expect(await topics(roundId)).toEqual(new Set(['refresh.fetch.requested']));
    expect(await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: roundId } })).toMatchObject({ kind: 'round', bucket: 0 });
    expect(await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: passId } })).toMatchObject({ kind: 'pass', bucket: null });

    // both running: neither the schedule nor a request starts another of either
    const at2 = new Date(t0.getTime() + 2 * MIN);
    expect(await planner.tryStart(at2)).toEqual({ pass: { waiting: 'running' }, round: { waiting: 'running' } });
    await db.prisma.refreshRequest.create({ data: { id: 'rfr_operator_1', requestedAt: at2 } });
    expect(await planner.tryStart(at2)).toEqual({ pass: { waiting: 'running' }, round: { waiting: 'running' } });

    // the pass ended, the round still runs: the request's pass starts at once, under the request's id
    await finishAll(passId);
    expect(await planner.tryStart(new Date(at2.getTime() + 1))).toEqual({ pass: { started: 'rfr_operator_1' }, round: { waiting: 'running' } });
    expect(await db.prisma.refreshRequest.findUniqueOrThrow({ where: { id: 'rfr_operator_1' } })).toMatchObject({ passId: 'rfr_operator_1', roundId: null });
    // the last pass started two intervals ago: its change feed reaches back to that pass's window
    const own = (await sweepsOf('rfr_operator_1')).filter((s) => s.provider === 'own_index');
    expect(own).toEqual([expect.objectContaining({ kind: 'catalog_changes', changed_since: t0.getTime() + MIN - 4 * MIN })]);

    // the round ended: the next round serves the request, with the next bucket (nothing stored: no sweep, so over at once)
    await finishAll(roundId);
    const next = await planner.tryStart(new Date(at2.getTime() + 2));
    expect(next.pass).toEqual({ waiting: 'running' });
    const nextRound = (next.round as { started: string }).started;
    expect(await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: nextRound } })).toMatchObject({ kind: 'round', bucket: 1, trigger: 'request' });
    expect(await db.prisma.refreshRequest.findUniqueOrThrow({ where: { id: 'rfr_operator_1' } })).toMatchObject({ passId: 'rfr_operator_1', roundId: nextRound });
    await finishAll('rfr_operator_1');

    // on schedule: not before the interval has passed since the last start of each
    expect(await planner.tryStart(new Date(at2.getTime() + 30_000))).toEqual({ pass: { waiting: 'interval' }, round: { waiting: 'interval' } });
    const scheduled = await planner.tryStart(new Date(at2.getTime() + MIN + 2));
    expect(scheduled.pass).toHaveProperty('started');
    expect(scheduled.round).toHaveProperty('started');
  });

  it('a pass or round whose sweep never ended stops holding the next one back after the stale bound', async () => {
    const last = await db.prisma.refreshPass.findFirstOrThrow({ where: { kind: 'pass' }, orderBy: { startedAt: 'desc' } });
    const round = await db.prisma.refreshPass.findFirstOrThrow({ where: { kind: 'round' }, orderBy: { startedAt: 'desc' } });
    // bucket 2 plans no sweep on an empty store; give it one that never ends
    await db.prisma.refreshSweep.create({ data: { passId: round.id, provider: 'provider_a', key: 'companies:2/10:0', kind: 'companies' } });
    expect(await planner.tryStart(new Date(last.startedAt.getTime() + 2 * MIN))).toEqual({ pass: { waiting: 'running' }, round: { waiting: 'running' } });
    const later = await planner.tryStart(new Date(last.startedAt.getTime() + 11 * MIN));
    expect(later.pass).toHaveProperty('started');
    expect(later.round).toHaveProperty('started');
  });
});
