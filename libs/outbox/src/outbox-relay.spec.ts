// The relay's safety net against the real PostgreSQL (a throwaway database migrated as deploy
// does), with a recording stand-in for Kafka: which rows nobody sent it takes, and when.
import pg from 'pg';
import { enqueueSerializedOutbox, type PrismaService } from '@jobs/db';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { TopicSpec } from '@jobs/kafka';
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { DrainRegistry, ReadinessRegistry } from '@jobs/service-kit';
import { OutboxRelay } from './outbox-relay.js';
import { RELAY_LOCK_NAMESPACE, RelayLifeLock } from './relay-life-lock.js';

const logger = { warn: () => undefined, info: () => undefined, error: () => undefined } as unknown as Logger;
const registry = { register: () => undefined } as unknown as DrainRegistry & ReadinessRegistry;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A relay whose sends are recorded (topic and key), started as Nest starts it. */
async function startRelay(db: ThrowawayDatabase, sent: string[], prisma = db.prisma): Promise<OutboxRelay> {
  const publisher = {
    typed: {
      inPublishSpan: async (_topic: string, _n: number, run: () => Promise<void>) => run(),
      headersFor: () => ({}),
      sendRaw: async (topic: string, messages: Array<{ key: string }>) => {
        for (const m of messages) sent.push(`${topic}:${m.key}`);
      },
    },
  } as unknown as KafkaPublisher;
  const relay = new OutboxRelay(prisma, publisher, logger, db.url, registry, registry);
  await relay.onModuleInit();
  relay.onApplicationBootstrap();
  return relay;
}

/** A row as a replica stages it, committed and never sent (its replica stopped before its publish). */
async function stageUnsent(prisma: PrismaService, key: string, stagedBy?: number): Promise<void> {
  await prisma.$transaction((tx) =>
    enqueueSerializedOutbox(tx, [{ topic: 'search.page.charged', key, value: '{}', headers: {} }], { stagedBy }),
  );
}

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const end = Date.now() + timeoutMs;
  while (!check() && Date.now() < end) await sleep(25);
  return check();
}

/** The backend holding relay life lock `key` in this database, if any. */
async function lockHolder(db: ThrowawayDatabase, key: number): Promise<number | undefined> {
  const rows = await db.prisma.$queryRaw<Array<{ pid: number }>>`
    SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND objsubid = 2
      AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
      AND classid = ${RELAY_LOCK_NAMESPACE}::int::oid AND objid = ${key}::int::oid`;
  return rows[0]?.pid;
}

describe('OutboxRelay on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let relay: OutboxRelay | undefined;
  const sent: string[] = [];

  beforeAll(async () => {
    db = await throwawayDatabase('outbox');
  });
  afterEach(async () => {
    await relay?.stop();
    relay = undefined;
    sent.length = 0;
    await db.prisma.$executeRaw`DELETE FROM outbox_messages`;
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('sends the rows of a replica that died between its commit and its publish within a second', async () => {
    relay = await startRelay(db, sent);
    const other = new RelayLifeLock(db.url, logger);
    await other.start();
    await stageUnsent(db.prisma, 'charged-before-death', other.key);
    // Past the half second a dead replica's row waits; four seconds short of the age any row is taken at.
    await db.prisma.$executeRaw`UPDATE outbox_messages SET created_at = now() - interval '1 s'`;

    try {
      // Its replica lives: the row is its own to send, however many safety passes look at it.
      await sleep(1_200);
      expect(sent).toEqual([]);
    } finally {
      // Its process ends (its connections close): the row is anyone's from now.
      await other.stop();
    }
    await db.prisma.$executeRaw`UPDATE outbox_messages SET created_at = now() - interval '1 s'`;
    // Sent within these 3 s, it was sent as a dead replica's: the age rule would take it 4 s from now.
    expect(await until(() => sent.length > 0, 3_000)).toBe(true);
    expect(sent).toEqual(['search.page.charged:charged-before-death']);
    // deleted in the transaction that claimed it, which commits after the send
    let left = 1;
    for (let i = 0; i < 40 && left > 0; i++) {
      left = (await db.prisma.$queryRaw<unknown[]>`SELECT id FROM outbox_messages`).length;
      if (left > 0) await sleep(25);
    }
    expect(left).toBe(0);
  }, 15_000);

  it('sends rows of live replicas and rows staged without a key only after the age of a failed send', async () => {
    relay = await startRelay(db, sent);
    const live = new RelayLifeLock(db.url, logger);
    await live.start();
    await stageUnsent(db.prisma, 'live-young', live.key);
    await stageUnsent(db.prisma, 'keyless-young');
    await stageUnsent(db.prisma, 'keyless-6s');
    await db.prisma.$executeRaw`
      UPDATE outbox_messages
      SET created_at = now() - CASE WHEN key = 'keyless-6s' THEN interval '6 s' ELSE interval '0.6 s' END`;

    try {
      // The oldest row (by id) is a live replica's: it does not hide the orphans behind it. The
      // 0.6 s rows reach the age rule 4.4 s after the update.
      expect(await until(() => sent.length > 0, 2_000)).toBe(true);
      await sleep(600);
      expect(sent).toEqual(['search.page.charged:keyless-6s']);
    } finally {
      await live.stop();
    }
  }, 15_000);

  it('sends a committed row once while its delete fails, and deletes it once the database answers', async () => {
    let deletesFail = true;
    // the relay's statements outside transactions, its deletes among them, fail while the flag is up
    const flaky = new Proxy(db.prisma, {
      get(target, property) {
        const value: unknown = Reflect.get(target, property);
        if (property === '$executeRaw')
          return (...args: unknown[]) =>
            deletesFail
              ? Promise.reject(new Error('the database is away'))
              : (value as (...a: unknown[]) => Promise<number>).apply(target, args);
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
    relay = await startRelay(db, sent, flaky);
    const topic = { name: 'search.page.charged', keyOf: () => 'once' } as unknown as TopicSpec;
    let committed: object | undefined;
    await db.prisma.$transaction(async (tx) => {
      committed = tx;
      await relay!.stage(tx, topic, {} as never);
    });
    relay.kick(committed);

    expect(await until(() => sent.length > 0, 2_000)).toBe(true);
    // passes of the relay while the delete fails, past the age at which any row is an orphan (5 s):
    // neither its own passes nor its safety net send it again
    await sleep(5_600);
    expect(sent).toEqual(['search.page.charged:once']);
    expect(await db.prisma.outboxMessage.count()).toBe(1);

    deletesFail = false;
    const deleted = async () => (await db.prisma.outboxMessage.count()) === 0;
    for (let i = 0; i < 40 && !(await deleted()); i++) await sleep(50);
    expect(await deleted()).toBe(true);
    expect(sent).toEqual(['search.page.charged:once']);
  }, 15_000);

  it('draws another key when a live session holds its own', async () => {
    const lock = new RelayLifeLock(db.url, logger);
    const drawn = lock.key;
    const holder = new pg.Client({ connectionString: db.url });
    await holder.connect();
    await holder.query('SELECT pg_advisory_lock($1::int, $2::int)', [RELAY_LOCK_NAMESPACE, drawn]);
    try {
      await lock.start();
      expect(lock.key).not.toBe(drawn);
      expect(await lockHolder(db, lock.key)).toBeDefined();
    } finally {
      await lock.stop();
      await holder.end();
    }
    expect(await lockHolder(db, lock.key)).toBeUndefined();
  });

  it('takes its lock again, under the same key, when its session is ended from outside', async () => {
    const lock = new RelayLifeLock(db.url, logger);
    await lock.start();
    try {
      const first = await lockHolder(db, lock.key);
      expect(first).toBeDefined();
      await db.prisma.$queryRaw`SELECT pg_terminate_backend(${first}::int)`;
      const start = Date.now();
      let heldAgain = false;
      while (!heldAgain && Date.now() - start < 5_000) {
        await sleep(100);
        const holder = await lockHolder(db, lock.key);
        heldAgain = holder !== undefined && holder !== first;
      }
      expect(heldAgain).toBe(true);
    } finally {
      await lock.stop();
    }
  }, 10_000);
});
