// Integration spec on a throwaway PostgreSQL database: the event store and the delivery claims.
import pg from 'pg';
import type { EventEmitted } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { StoreEventUseCase } from '../events/store-event.usecase.js';
import { DeliveryStore, LEASE_MS } from './delivery-store.js';

describe('DeliveryStore and StoreEventUseCase on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let events: StoreEventUseCase;
  let store: DeliveryStore;
  let n = 0;

  beforeAll(async () => {
    db = await throwawayDatabase('dispatcher');
    events = new StoreEventUseCase(db.prisma);
    store = new DeliveryStore(db.prisma);
    const now = new Date();
    await db.prisma.account.create({ data: { id: 'acc_a', plan: 'pro', creditsRemaining: 0, creditsResetAt: now, rateLimitLimit: 10, rateLimitWindowSeconds: 60 } });
  }, 60_000);
  afterAll(() => db?.drop());

  const message = (url: string | null): EventEmitted.Value => ({
    v: 1,
    account_id: 'acc_a',
    webhook_url: url,
    event: { id: `evt_${++n}`, type: 'search.completed', created_at: '2026-11-22T10:00:00.000Z', watch_id: null, data: { search: { id: `srch_${n}`, status: 'completed', jobs_found: n } } },
  });
  const far = () => new Date(Date.now() + 10 * 60_000);

  it('stores an event once with its first delivery; a redelivery changes nothing; unknown accounts are refused for good', async () => {
    const m = message('http://one.example/hook');
    await expect(events.execute(m)).resolves.toEqual({ stored: true, delivery: true });
    await expect(events.execute(m)).resolves.toEqual({ stored: false, delivery: false });
    await expect(events.execute(message(null))).resolves.toEqual({ stored: true, delivery: false });
    expect(await db.prisma.webhookEvent.count({ where: { eventId: m.event.id } })).toBe(1);
    expect(await db.prisma.webhookDelivery.count({ where: { url: 'http://one.example/hook' } })).toBe(1);
    const row = await db.prisma.webhookEvent.findFirstOrThrow({ where: { eventId: m.event.id } });
    expect(row.body).toBe(JSON.stringify(m.event));
    await expect(events.execute({ ...message(null), account_id: 'acc_nobody' })).rejects.toMatchObject({ name: 'NonRetriableError' });
  });

  it('claims a due delivery once (SKIP LOCKED, lease), caps claims per endpoint and skips saturated endpoints', async () => {
    for (let i = 0; i < 3; i++) await events.execute(message('http://busy.example/hook'));
    await events.execute(message('http://calm.example/hook'));
    const first = await store.claimDue(far(), 10, ['http://one.example/hook'], (url) => (url === 'http://busy.example/hook' ? 2 : 4));
    expect(first.filter((c) => c.url === 'http://busy.example/hook')).toHaveLength(2);
    expect(first.filter((c) => c.url === 'http://calm.example/hook')).toHaveLength(1);
    expect(first.every((c) => c.attempt === 1)).toBe(true);
    expect(first.map((c) => c.url)).not.toContain('http://one.example/hook');
    // Concurrent claimers (replicas) never get the same delivery: each row is leased by its claim.
    const [a, b] = await Promise.all([store.claimDue(far(), 10, [], () => 4), store.claimDue(far(), 10, [], () => 4)]);
    const ids = [...first, ...a, ...b].map((c) => c.deliveryId);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('records a failure with the next retry, a success as final, and ignores a late finish after the lease was lost', async () => {
    const m = message('http://flaky.example/hook');
    await events.execute(m);
    const now = far();
    const [claim] = await store.claimDue(now, 10, [], (url) => (url === 'http://flaky.example/hook' ? 1 : 0));
    expect(claim).toMatchObject({ eventId: m.event.id, attempt: 1, body: JSON.stringify(m.event) });
    const failedAt = new Date(now.getTime() + 5);
    await expect(store.finish(claim!, { kind: 'failed', statusCode: 500, error: null }, now, failedAt, 1)).resolves.toEqual({ status: 'pending', dueAt: new Date(failedAt.getTime() + 60_000) });

    // The retry is claimed after the worker that took it died: its lease ends, another claim takes it.
    const retryAt = new Date(failedAt.getTime() + 60_000);
    const [retry] = await store.claimDue(retryAt, 10, [], (url) => (url === 'http://flaky.example/hook' ? 1 : 0));
    expect(retry).toMatchObject({ attempt: 2, retrySlot: 1 });
    const [again] = await store.claimDue(new Date(retryAt.getTime() + LEASE_MS), 10, [], (url) => (url === 'http://flaky.example/hook' ? 1 : 0));
    expect(again).toMatchObject({ attempt: 3 });
    // The dead worker's late finish changes nothing; the live one's success is final.
    await store.finish(retry!, { kind: 'succeeded', statusCode: 200 }, retryAt, retryAt, 1);
    const doneAt = new Date(retryAt.getTime() + LEASE_MS + 10);
    await store.finish(again!, { kind: 'succeeded', statusCode: 204 }, doneAt, doneAt, 1);
    const attempts = await db.prisma.webhookAttempt.findMany({ where: { deliveryId: claim!.deliveryId }, orderBy: { number: 'asc' } });
    expect(attempts.map((a) => [a.number, a.outcome, a.statusCode])).toEqual([
      [1, 'failed', 500],
      [2, 'interrupted', null],
      [3, 'succeeded', 204],
    ]);
    const delivery = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claim!.deliveryId } });
    expect(delivery).toMatchObject({ status: 'succeeded', dueAt: null, attemptCount: 3 });
  });

  it('refuses for good: a refused attempt is final', async () => {
    await events.execute(message('http://refused.example/hook'));
    const [claim] = await store.claimDue(far(), 10, [], (url) => (url === 'http://refused.example/hook' ? 1 : 0));
    await store.finish(claim!, { kind: 'refused', error: 'private' }, new Date(), new Date(), 1);
    const delivery = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claim!.deliveryId } });
    expect(delivery).toMatchObject({ status: 'refused', dueAt: null });
  });

  it('takes feed positions in commit order: a store waiting on the account lock gets a position after the one that held it', async () => {
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook-feed:acc_a', 0))");
      const waiting = message(null);
      const stored = events.execute(waiting);
      // Causality: wait until the store is blocked on the account's feed lock.
      for (let i = 0; i < 200; i++) {
        const { rows } = await holder.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
        if (rows[0].n > 0) break;
        await new Promise((r) => setTimeout(r, 25));
      }
      const { rows } = await holder.query(
        `INSERT INTO webhook_events (account_id, event_id, type, body, created_at) VALUES ('acc_a', 'evt_holder', 'search.completed', '{}', now()) RETURNING position`,
      );
      await holder.query('COMMIT');
      await expect(stored).resolves.toEqual({ stored: true, delivery: false });
      const mine = await db.prisma.webhookEvent.findFirstOrThrow({ where: { eventId: waiting.event.id } });
      expect(mine.position).toBeGreaterThan(BigInt(rows[0].position));
    } finally {
      await holder.end();
    }
  });
});
