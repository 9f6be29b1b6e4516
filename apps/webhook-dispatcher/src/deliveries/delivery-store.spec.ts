// Integration spec on a throwaway PostgreSQL database: the event store and the delivery claims.
import pg from 'pg';
import type { EventEmitted } from '@jobs/contracts';
import { planNodes, throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { StoreEventUseCase } from '../events/store-event.usecase.js';
import { claimStatement, DeliveryStore, LEASE_MS } from './delivery-store.js';

describe('DeliveryStore and StoreEventUseCase on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let events: StoreEventUseCase;
  let store: DeliveryStore;
  let n = 0;

  /** An account of the Pro plan (its events are stored; an unknown account's are refused). */
  const account = (id: string) =>
    db.prisma.account.create({
      data: {
        id,
        plan: 'pro',
        creditsRemaining: 0,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });

  beforeAll(async () => {
    db = await throwawayDatabase('dispatcher');
    events = new StoreEventUseCase(db.prisma);
    store = new DeliveryStore(db.prisma);
    await account('acc_a');
  }, 60_000);
  afterAll(() => db?.drop());

  const message = (url: string | null): EventEmitted.Value => ({
    v: 1,
    account_id: 'acc_a',
    webhook_url: url,
    mode: 'live',
    event: {
      id: `evt_${++n}`,
      type: 'search.completed',
      created_at: '2026-11-22T10:00:00.000Z',
      watch_id: null,
      data: { search: { id: `srch_${n}`, status: 'completed', jobs_found: n } },
    },
  });
  const far = () => new Date(Date.now() + 10 * 60_000);

  it(
    'stores an event once with its first delivery; a redelivery ' +
      'changes nothing; unknown accounts are refused for good',
    async () => {
      const m = message('http://one.example/hook');
      await expect(events.execute(m)).resolves.toEqual({ stored: true, delivery: true });
      await expect(events.execute(m)).resolves.toEqual({ stored: false, delivery: false });
      await expect(events.execute(message(null))).resolves.toEqual({ stored: true, delivery: false });
      expect(await db.prisma.webhookEvent.count({ where: { eventId: m.event.id } })).toBe(1);
      expect(await db.prisma.webhookDelivery.count({ where: { url: 'http://one.example/hook' } })).toBe(1);
      const row = await db.prisma.webhookEvent.findFirstOrThrow({ where: { eventId: m.event.id } });
      expect(row.body).toBe(JSON.stringify(m.event));
      await expect(events.execute({ ...message(null), account_id: 'acc_nobody' })).rejects.toMatchObject({
        name: 'NonRetriableError',
      });
    },
  );

  /**
   * Every endpoint of this spec but `url` as busy as `perEndpoint` allows: a claim then takes `url`'s deliveries only.
   */
  const ENDPOINTS = [
    'http://one.example/hook',
    'http://busy.example/hook',
    'http://calm.example/hook',
    'http://flaky.example/hook',
    'http://refused.example/hook',
    'http://batch.example/hook',
    'http://back.example/hook',
    'http://modes.example/hook',
    'http://slowed.example/hook',
    'http://many1.example/hook',
    'http://many2.example/hook',
    'http://many3.example/hook',
    'http://other.example/hook',
  ];
  const onlyTo = (url: string, perEndpoint = 1) =>
    new Map(ENDPOINTS.filter((u) => u !== url).map((u) => [u, perEndpoint]));

  it(
    'claims a due delivery once (SKIP LOCKED, lease), endpoints ' +
      'round robin, none beyond its free slots, saturated endpoints ' +
      'skipped',
    async () => {
      for (let i = 0; i < 3; i++) await events.execute(message('http://busy.example/hook'));
      await events.execute(message('http://calm.example/hook'));
      // busy's three are older than calm's one, yet a claim of two takes one of each (fair share); one.example is
      // saturated.
      const first = await store.claimDue(far(), 2, new Map([['http://one.example/hook', 2]]), 2);
      expect(first.map((c) => c.url).sort()).toEqual(['http://busy.example/hook', 'http://calm.example/hook']);
      expect(first.every((c) => c.attempt === 1)).toBe(true);
      // busy has one attempt under way and room for one more: one is taken, not two.
      const second = await store.claimDue(
        far(),
        10,
        new Map([
          ['http://one.example/hook', 2],
          ['http://busy.example/hook', 1],
        ]),
        2,
      );
      expect(second.map((c) => c.url)).toEqual(['http://busy.example/hook']);
      // Concurrent claimers (replicas) never get the same delivery: each row is leased by its claim.
      const [a, b] = await Promise.all([
        store.claimDue(far(), 10, new Map(), 4),
        store.claimDue(far(), 10, new Map(), 4),
      ]);
      const ids = [...first, ...second, ...a, ...b].map((c) => c.deliveryId);
      expect(new Set(ids).size).toBe(ids.length);
      expect([...a, ...b].map((c) => c.url).sort()).toEqual(['http://busy.example/hook', 'http://one.example/hook']);
    },
  );

  it('claims a slowed-down endpoint up to its own cap, and none while it holds that many', async () => {
    const url = 'http://slowed.example/hook';
    for (let i = 0; i < 5; i++) await events.execute(message(url));
    const caps = new Map([[url, 2]]);
    const first = await store.claimDue(far(), 10, onlyTo(url, 4), 4, caps);
    expect(first.map((c) => c.url)).toEqual([url, url]);
    const held = new Map([...onlyTo(url, 4), [url, 2]]);
    expect(await store.claimDue(far(), 10, held, 4, caps)).toEqual([]);
    // recovered (no cap of its own): the endpoint's full share again
    const rest = await store.claimDue(far(), 10, held, 4);
    expect(rest.map((c) => c.url)).toEqual([url, url]);
  });

  it(
    'records a failure with the next retry, a success as final, ' +
      'and ignores a late finish after the lease was lost',
    async () => {
      const m = message('http://flaky.example/hook');
      await events.execute(m);
      const now = far();
      const [claim, ...more] = await store.claimDue(now, 10, onlyTo('http://flaky.example/hook'), 1);
      expect(more).toEqual([]);
      expect(claim).toMatchObject({ eventId: m.event.id, attempt: 1, body: JSON.stringify(m.event), secret: null });
      const failedAt = new Date(now.getTime() + 5);
      await expect(
        store.finish(claim!, { kind: 'failed', statusCode: 500, error: null }, now, failedAt, 1),
      ).resolves.toEqual({ status: 'pending', dueAt: new Date(failedAt.getTime() + 60_000) });
      // The retry is claimed after the worker that took it died: its lease ends, another claim takes it.
      const retryAt = new Date(failedAt.getTime() + 60_000);
      const [retry] = await store.claimDue(retryAt, 10, onlyTo('http://flaky.example/hook'), 1);
      expect(retry).toMatchObject({ attempt: 2, retrySlot: 1 });
      const [again] = await store.claimDue(
        new Date(retryAt.getTime() + LEASE_MS),
        10,
        onlyTo('http://flaky.example/hook'),
        1,
      );
      expect(again).toMatchObject({ attempt: 3 });
      // The dead worker's late finish changes nothing; the live one's success is final.
      await store.finish(retry!, { kind: 'succeeded', statusCode: 200 }, retryAt, retryAt, 1);
      const doneAt = new Date(retryAt.getTime() + LEASE_MS + 10);
      await store.finish(again!, { kind: 'succeeded', statusCode: 204 }, doneAt, doneAt, 1);
      const attempts = await db.prisma.webhookAttempt.findMany({
        where: { deliveryId: claim!.deliveryId },
        orderBy: { number: 'asc' },
      });
      expect(attempts.map((a) => [a.number, a.outcome, a.statusCode])).toEqual([
        [1, 'failed', 500],
        [2, 'interrupted', null],
        [3, 'succeeded', 204],
      ]);
      const delivery = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claim!.deliveryId } });
      expect(delivery).toMatchObject({ status: 'succeeded', dueAt: null, attemptCount: 3 });
    },
  );

  it('refuses for good: a refused attempt is final', async () => {
    await events.execute(message('http://refused.example/hook'));
    const [claim] = await store.claimDue(far(), 10, onlyTo('http://refused.example/hook'), 1);
    await store.finish(claim!, { kind: 'refused', error: 'private' }, new Date(), new Date(), 1);
    const delivery = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claim!.deliveryId } });
    expect(delivery).toMatchObject({ status: 'refused', dueAt: null });
  });

  it(
    'takes back a claim whose attempt never started: due at once, ' +
      'as if never claimed; a claim taken since by another is left ' +
      'alone',
    async () => {
      const url = 'http://back.example/hook';
      const m = message(url);
      await events.execute(m);
      const now = far();
      const [claim] = await store.claimDue(now, 10, onlyTo(url), 1);
      expect(claim).toMatchObject({ eventId: m.event.id, attempt: 1 });
      await store.giveBack([claim!], now);
      expect(await db.prisma.webhookAttempt.count({ where: { deliveryId: claim!.deliveryId } })).toBe(0);
      const [again] = await store.claimDue(now, 10, onlyTo(url), 1);
      expect(again).toMatchObject({ deliveryId: claim!.deliveryId, attempt: 1 });
      // The first claim handed back late (after `again` took it) changes nothing.
      await store.giveBack([{ ...again!, attempt: 0 }], now);
      const delivery = await db.prisma.webhookDelivery.findUniqueOrThrow({ where: { id: claim!.deliveryId } });
      expect(delivery).toMatchObject({ attemptCount: 1, dueAt: new Date(now.getTime() + LEASE_MS) });
      expect(
        await db.prisma.webhookAttempt.findMany({
          where: { deliveryId: claim!.deliveryId },
          select: { number: true, outcome: true },
        }),
      ).toEqual([{ number: 1, outcome: 'in_flight' }]);
      await store.finish(again!, { kind: 'succeeded', statusCode: 200 }, now, now, 1);
    },
  );

  it(
    'claims each event with the secret of its own mode: a test ' + 'event never gets the live secret of the same URL',
    async () => {
      const url = 'http://modes.example/hook';
      await db.prisma.webhookEndpointSecret.create({
        data: { accountId: 'acc_a', mode: 'live', url, secret: 'whsec_live_row' },
      });
      const live = message(url);
      const test = { ...message(url), mode: 'test' as const };
      await events.execute(live);
      await events.execute(test);
      const before = await store.claimDue(far(), 10, onlyTo(url, 4), 4);
      expect(before.map((claim) => [claim.eventId, claim.mode, claim.secret?.secret ?? null]).sort()).toEqual(
        [
          [live.event.id, 'live', 'whsec_live_row'],
          [test.event.id, 'test', null],
        ].sort(),
      );
      // once the test secret exists (made by the first test delivery or a test key), test events carry it
      await db.prisma.webhookEndpointSecret.create({
        data: { accountId: 'acc_a', mode: 'test', url, secret: 'whsec_test_row' },
      });
      const retry = { ...message(url), mode: 'test' as const };
      await events.execute(retry);
      const [claim] = (await store.claimDue(far(), 10, onlyTo(url, 4), 4)).filter((c) => c.eventId === retry.event.id);
      expect(claim).toMatchObject({ mode: 'test', secret: { secret: 'whsec_test_row' } });
    },
  );

  it(
    'stores a batch in one transaction: feed positions in the ' +
      'batch order, a repeat stored once, an unknown account ' +
      'refused alone; the claim carries trace context and secret',
    async () => {
      const url = 'http://batch.example/hook';
      const [a, b, c] = [message(url), message(url), message(null)];
      await db.prisma.webhookEndpointSecret.create({ data: { accountId: 'acc_a', url, secret: 'whsec_batch' } });
      const traceParent = '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01';
      const outcomes = await events.storeMany([
        { message: a, traceParent, requestId: 'req_batch' },
        { message: b, traceParent: null, requestId: null },
        { message: { ...c, account_id: 'acc_nobody' }, traceParent: null, requestId: null },
        { message: a, traceParent, requestId: 'req_batch' },
        { message: c, traceParent: null, requestId: null },
      ]);
      expect(outcomes[0]).toEqual({ stored: true, delivery: true });
      expect(outcomes[1]).toEqual({ stored: true, delivery: true });
      expect(outcomes[2]).toMatchObject({ name: 'NonRetriableError' });
      expect(outcomes[3]).toEqual({ stored: false, delivery: false });
      expect(outcomes[4]).toEqual({ stored: true, delivery: false });
      const rows = await db.prisma.webhookEvent.findMany({
        where: { eventId: { in: [a.event.id, b.event.id, c.event.id] } },
        orderBy: { position: 'asc' },
      });
      expect(rows.map((r) => r.eventId)).toEqual([a.event.id, b.event.id, c.event.id]);
      const claims = await store.claimDue(far(), 10, onlyTo(url, 4), 4);
      expect(claims.map((claim) => claim.eventId).sort()).toEqual([a.event.id, b.event.id].sort());
      expect(claims.find((claim) => claim.eventId === a.event.id)).toMatchObject({
        traceParent,
        requestId: 'req_batch',
        secret: { secret: 'whsec_batch', previousSecret: null, previousExpiresAt: null },
      });
      expect(claims.find((claim) => claim.eventId === b.event.id)).toMatchObject({
        traceParent: null,
        requestId: null,
      });
      // Both ends recorded in one statement.
      const at = new Date();
      const next = await store.finishMany(
        [
          { claim: claims[0]!, outcome: { kind: 'succeeded', statusCode: 200 }, startedAt: at, finishedAt: at },
          {
            claim: claims[1]!,
            outcome: { kind: 'failed', statusCode: null, error: 'connection failed: ECONNRESET' },
            startedAt: at,
            finishedAt: at,
          },
        ],
        1,
      );
      expect(next).toEqual([
        { status: 'succeeded', dueAt: null },
        { status: 'pending', dueAt: new Date(at.getTime() + 60_000) },
      ]);
      const attempts = await db.prisma.webhookAttempt.findMany({
        where: { deliveryId: { in: claims.map((claim) => claim.deliveryId) } },
      });
      expect(attempts.map((x) => [x.deliveryId, x.outcome, x.statusCode, x.error]).sort()).toEqual(
        [
          [claims[0]!.deliveryId, 'succeeded', 200, null],
          [claims[1]!.deliveryId, 'failed', null, 'connection failed: ECONNRESET'],
        ].sort(),
      );
    },
  );

  it(
    'takes feed positions in commit order: a store waiting on the ' +
      'account lock gets a position after the one that held it',
    async () => {
      const holder = new pg.Client({ connectionString: db.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query("SELECT pg_advisory_xact_lock(hashtextextended('webhook-feed:acc_a', 0))");
        const waiting = message(null);
        const stored = events.execute(waiting);
        // Causality: wait until the store is blocked on the account's feed lock.
        for (let i = 0; i < 200; i++) {
          const { rows } = await holder.query(
            "SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted",
          );
          if (rows[0].n > 0) break;
          await new Promise((r) => setTimeout(r, 25));
        }
        const { rows } = await holder.query(
          `INSERT INTO webhook_events (account_id, event_id, type, ` +
            `body, created_at) VALUES ('acc_a', 'evt_holder', ` +
            `'search.completed', '{}', now()) RETURNING position`,
        );
        await holder.query('COMMIT');
        await expect(stored).resolves.toEqual({ stored: true, delivery: false });
        const mine = await db.prisma.webhookEvent.findFirstOrThrow({ where: { eventId: waiting.event.id } });
        expect(mine.position).toBeGreaterThan(BigInt(rows[0].position));
      } finally {
        await holder.end();
      }
    },
  );

  it("takes accounts in turn, and none of an account's deliveries while it holds its cap", async () => {
    await account('acc_b');
    const many = ['http://many1.example/hook', 'http://many2.example/hook', 'http://many3.example/hook'];
    // one account's backlog over three endpoints, older than another account's one delivery
    for (const url of many) for (let i = 0; i < 3; i++) await events.execute(message(url));
    const others = () => events.execute({ ...message('http://other.example/hook'), account_id: 'acc_b' });
    await others();
    const idle = new Map(
      ENDPOINTS.filter((u) => !many.includes(u) && u !== 'http://other.example/hook').map((u) => [u, 4]),
    );
    // acc_a holds as many claims as an account may: its endpoints have room, yet only acc_b's is taken
    const capped = await store.claimDue(far(), 10, idle, 4, undefined, { held: new Map([['acc_a', 4]]), cap: 4 });
    expect(capped.map((c) => [c.accountId, c.url])).toEqual([['acc_b', 'http://other.example/hook']]);
    // with room for three and both accounts among the due rows looked at: acc_b's second, though
    // acc_a's three endpoints are older (below its cap, an account whose backlog fills those rows
    // is served until it reaches the cap, then the others)
    await others();
    const shared = await store.claimDue(far(), 3, idle, 4, undefined, { held: new Map([['acc_a', 1]]), cap: 4 });
    expect(shared.map((c) => c.accountId).sort()).toEqual(['acc_a', 'acc_a', 'acc_b']);
    // an account's claims stop at its room: three left under its cap of four
    const rest = await store.claimDue(far(), 10, idle, 4, undefined, { held: new Map([['acc_a', 2]]), cap: 5 });
    expect(rest.map((c) => c.accountId)).toEqual(['acc_a', 'acc_a', 'acc_a']);
  });

  it(
    'reads the attempt a claim interrupts by key on tables never analyzed (a fresh ' +
      "deployment's first minute), not by a pass over every attempt",
    async () => {
      // 20,000 delivered deliveries with their attempts, as a first burst of events leaves them
      await db.prisma.$executeRawUnsafe(`
        WITH events AS (
          INSERT INTO webhook_events (account_id, event_id, type, body, created_at)
          SELECT 'acc_a', 'evt_burst_' || i, 'search.completed', '{}', now() FROM generate_series(1, 20000) AS i
          RETURNING position, event_id
        ), deliveries AS (
          INSERT INTO webhook_deliveries (id, event_position, account_id, url, kind, status, attempt_count, updated_at)
          SELECT 'dlv_' || event_id, position, 'acc_a', 'http://burst.example/hook', 'original', 'succeeded', 1, now()
          FROM events RETURNING id
        )
        INSERT INTO webhook_attempts (delivery_id, number, started_at, outcome)
        SELECT id, 1, now(), 'succeeded' FROM deliveries`);
      // never analyzed nor vacuumed: the planner has no statistics of it
      const never = await db.prisma.$queryRaw<Array<{ reltuples: number }>>`
        SELECT reltuples FROM pg_class WHERE relname = 'webhook_attempts' AND relkind = 'r'`;
      expect(never).toEqual([{ reltuples: -1 }]);
      const plan = await planNodes(db.prisma, claimStatement(new Date(), 16, new Map([['http://a.example', 1]]), 4));
      const attemptReads = plan.filter(
        (node) => node['Relation Name'] === 'webhook_attempts' && node['Node Type'] !== 'ModifyTable',
      );
      expect(attemptReads.map((node) => node['Node Type'])).toEqual(['Index Scan']);
    },
  );

  it('claims past an endpoint whose slots are full without reading its backlog', async () => {
    await account('acc_q');
    // 20,000 deliveries due a minute ago to one endpoint, then one due a second ago to another
    const due = (url: string, count: number, ago: string) =>
      db.prisma.$executeRawUnsafe(`
        WITH events AS (
          INSERT INTO webhook_events (account_id, event_id, type, body, created_at)
          SELECT 'acc_q', 'evt_q_' || md5(random()::text), 'search.completed', '{}', now()
          FROM generate_series(1, ${count})
          RETURNING position, event_id
        )
        INSERT INTO webhook_deliveries (id, event_position, account_id, url, kind, status, due_at, updated_at)
        SELECT 'dlv_' || event_id, position, 'acc_q', '${url}', 'original', 'pending', now() - interval '${ago}', now()
        FROM events`);
    await due('http://backlog.example/hook', 20_000, '1 minute');
    await due('http://quiet.example/hook', 1, '1 second');
    await db.prisma.$executeRaw`ANALYZE webhook_deliveries`;

    // the backlog's endpoint has its four slots busy here
    const busy = new Map([['http://backlog.example/hook', 4]]);
    const plan = await planNodes(db.prisma, claimStatement(new Date(), 16, busy, 4), { analyze: true });
    const read = plan
      .filter((node) => node['Relation Name'] === 'webhook_deliveries' && node['Node Type'] !== 'ModifyTable')
      .reduce(
        (sum, node) =>
          sum + ((node['Actual Rows'] ?? 0) + (node['Rows Removed by Filter'] ?? 0)) * (node['Actual Loops'] ?? 1),
        0,
      );
    expect(read).toBeLessThan(100);
    const claimed = await db.prisma.webhookDelivery.findMany({ where: { accountId: 'acc_q', attemptCount: 1 } });
    expect(claimed.map((delivery) => delivery.url)).toEqual(['http://quiet.example/hook']);
    // the endpoints' heads follow: the quiet one's is its lease's end now, the backlog's a minute ago
    const heads = await db.prisma.webhookEndpointQueue.findMany({
      where: { accountId: 'acc_q' },
      orderBy: { url: 'asc' },
    });
    expect(heads.map((head) => head.url)).toEqual(['http://backlog.example/hook', 'http://quiet.example/hook']);
    expect(heads[0]!.nextDueAt!.getTime()).toBeLessThan(Date.now() - 30_000);
    expect(heads[1]!.nextDueAt!.getTime()).toBeGreaterThan(Date.now() + LEASE_MS / 2);
  }, 60_000);

  describe('beside other writers', () => {
    /** One event per endpoint of `urls`, each with a delivery due a second ago. */
    const dueAt = (accountId: string, urls: string[]) =>
      db.prisma.$executeRaw`
        WITH input AS (SELECT u, 'evt_' || md5(random()::text) AS event_id FROM unnest(${urls}::text[]) AS u),
        events AS (
          INSERT INTO webhook_events (account_id, event_id, type, body, created_at)
          SELECT ${accountId}, event_id, 'search.completed', '{}', now() FROM input RETURNING position, event_id
        )
        INSERT INTO webhook_deliveries (id, event_position, account_id, url, kind, status, due_at, updated_at)
        SELECT 'dlv_' || e.event_id, e.position, ${accountId}, i.u, 'original', 'pending',
          now() - interval '1 second', now()
        FROM events e JOIN input i ON i.event_id = e.event_id`;
    const headOf = async (accountId: string, url: string) =>
      (await db.prisma.webhookEndpointQueue.findUnique({ where: { accountId_url: { accountId, url } } }))?.nextDueAt;

    it("keeps each endpoint's head as its deliveries move to another endpoint or are deleted", async () => {
      await account('acc_h');
      await dueAt('acc_h', ['http://h1.example/hook']);
      expect(await headOf('acc_h', 'http://h1.example/hook')).not.toBeNull();
      await db.prisma.webhookDelivery.updateMany({
        where: { accountId: 'acc_h' },
        data: { url: 'http://h2.example/hook' },
      });
      expect(await headOf('acc_h', 'http://h1.example/hook')).toBeNull();
      expect(await headOf('acc_h', 'http://h2.example/hook')).not.toBeNull();
      // the event goes, and its delivery with it (ON DELETE CASCADE): nothing is due there any more
      await db.prisma.webhookEvent.deleteMany({ where: { accountId: 'acc_h' } });
      expect(await headOf('acc_h', 'http://h2.example/hook')).toBeNull();
    });

    it("claims beside another replica's claim in flight: the endpoints that one holds cost nothing", async () => {
      await account('acc_r');
      await dueAt(
        'acc_r',
        Array.from({ length: 200 }, (_, i) => `http://r${i}.example/hook`),
      );
      await db.prisma.$executeRaw`ANALYZE webhook_endpoint_queues`;
      const other = new pg.Client({ connectionString: db.url });
      await other.connect();
      try {
        // only this account's deliveries: the earlier tests' accounts hold all the claims they may
        const room = {
          held: new Map([
            ['acc_a', 1_000],
            ['acc_b', 1_000],
            ['acc_q', 1_000],
            ['acc_h', 1_000],
          ]),
          cap: 1_000,
        };
        await other.query('BEGIN');
        const first = claimStatement(new Date(), 10, new Map(), 4, undefined, room);
        const held = await other.query(first.text, first.values as unknown[]);
        expect(held.rowCount).toBe(10);
        // the other replica's claim holds its candidates (four per delivery) until it commits
        const mine = await store.claimDue(new Date(), 10, new Map(), 4, undefined, room);
        expect(mine.map((claim) => claim.accountId)).toEqual(Array(10).fill('acc_r'));
      } finally {
        await other.query('ROLLBACK');
        await other.end();
      }
    });
  });
});
