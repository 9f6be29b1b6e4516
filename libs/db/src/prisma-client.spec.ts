// Integration test against the real PostgreSQL (the server of DATABASE_URL, default
// postgresql://postgres@127.0.0.1:5432): a throwaway database is created, migrated with the very
// code path of `node scripts/db/migrate.mjs deploy`, exercised, and dropped.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import {
  createPrismaClient,
  enqueueSerializedOutbox,
  preparedStatementNames,
  isUniqueViolation,
  KeyMode,
  LedgerReason,
  Plan,
  Prisma,
  type PrismaClient,
  PrismaModule,
  PrismaService,
} from './index.js';
import { databaseUrlFromEnv, deployMigrations, dropDatabase, MIGRATIONS_DIR } from '../migrator.mjs';

const dbName = `jobs_test_${randomBytes(6).toString('hex')}`;
const url = (() => {
  const u = new URL(databaseUrlFromEnv());
  u.pathname = `/${dbName}`;
  return u.toString();
})();
const migrationNames = readdirSync(MIGRATIONS_DIR, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

let prisma: PrismaClient;

beforeAll(async () => {
  const result = await deployMigrations({ databaseUrl: url });
  expect(result).toEqual({ createdDatabase: true, applied: migrationNames, total: migrationNames.length });
  prisma = createPrismaClient(url, { poolSize: 4 });
  await prisma.$connect();
});

afterAll(async () => {
  await prisma?.$disconnect();
  await dropDatabase(url);
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ACCOUNT = 'acct_test_1';

async function creditsOf(accountId: string): Promise<number> {
  const a = await prisma.account.findUniqueOrThrow({ where: { id: accountId }, select: { creditsRemaining: true } });
  return a.creditsRemaining;
}

it('has at least the init migration', () => {
  expect(migrationNames.length).toBeGreaterThanOrEqual(1);
  expect(migrationNames[0]).toMatch(/^\d{14}_init$/);
});

it('stores an account and an API key, and keyHash is unique', async () => {
  const account = await prisma.account.create({
    data: {
      id: ACCOUNT,
      plan: Plan.starter,
      creditsRemaining: 100,
      creditsResetAt: new Date('2026-12-01T00:00:00Z'),
      rateLimitLimit: 60,
      rateLimitWindowSeconds: 60,
    },
  });
  expect(account.pinnedVersion).toBe('2026-10-01');
  expect(account.createdAt).toBeInstanceOf(Date);

  const key = 'sk_live_0123456789abcdef';
  const apiKey = await prisma.apiKey.create({
    data: { id: 'key_1', accountId: ACCOUNT, mode: KeyMode.live, keyHash: sha256(key), keyPrefix: key.slice(0, 12) },
  });
  expect(apiKey.revokedAt).toBeNull();
  const found = await prisma.apiKey.findUnique({ where: { keyHash: sha256(key) }, include: { account: true } });
  expect(found?.account.plan).toBe('starter');

  const dup = prisma.apiKey.create({
    data: { id: 'key_2', accountId: ACCOUNT, mode: KeyMode.test, keyHash: sha256(key), keyPrefix: key.slice(0, 12) },
  });
  await expect(dup).rejects.toBeInstanceOf(Prisma.PrismaClientKnownRequestError);
  await expect(dup).rejects.toMatchObject({ code: 'P2002' });
  expect(await prisma.apiKey.count({ where: { accountId: ACCOUNT } })).toBe(1);
});

it('charges a job once per account: PaidJob + LedgerEntry + credits in one transaction', async () => {
  const charge = (ledgerId: string, requestId: string) =>
    prisma.$transaction(async (tx) => {
      // ledger first, so a failure of the PaidJob insert proves the ledger row is rolled back too
      await tx.ledgerEntry.create({
        data: {
          id: ledgerId,
          accountId: ACCOUNT,
          jobId: 'job_1',
          requestId,
          operation: 'jobs.search',
          credits: 1,
          reason: LedgerReason.charged,
        },
      });
      await tx.paidJob.create({ data: { accountId: ACCOUNT, jobId: 'job_1' } });
      await tx.account.update({ where: { id: ACCOUNT }, data: { creditsRemaining: { decrement: 1 } } });
      await enqueueSerializedOutbox(tx, [
        {
          topic: 'billing.charged.v1',
          key: ACCOUNT,
          value: JSON.stringify({ accountId: ACCOUNT, jobId: 'job_1', requestId }),
          headers: {},
        },
      ]);
    });

  await charge('led_1', 'req_1');
  expect(await creditsOf(ACCOUNT)).toBe(99);
  expect(await prisma.paidJob.count({ where: { accountId: ACCOUNT } })).toBe(1);

  let error: unknown;
  try {
    await charge('led_2', 'req_2');
  } catch (e) {
    error = e;
  }
  expect(isUniqueViolation(error)).toBe(true);
  expect((error as Prisma.PrismaClientKnownRequestError).code).toBe('P2002');

  // rolled back: no second ledger entry, no second outbox message, credits untouched
  expect(await prisma.ledgerEntry.findUnique({ where: { id: 'led_2' } })).toBeNull();
  expect(await prisma.ledgerEntry.count({ where: { accountId: ACCOUNT } })).toBe(1);
  expect(await creditsOf(ACCOUNT)).toBe(99);
  const outbox = await prisma.outboxMessage.findMany({ orderBy: { id: 'asc' } });
  expect(outbox).toHaveLength(1);
  expect(typeof outbox[0]?.id).toBe('bigint');
  expect(outbox[0]).toMatchObject({ topic: 'billing.charged.v1', key: ACCOUNT, headers: {} });
  expect(JSON.parse(outbox[0]!.value)).toEqual({ accountId: ACCOUNT, jobId: 'job_1', requestId: 'req_1' });

  // the ledger page query the (accountId, createdAt desc, id) index serves
  const page = await prisma.ledgerEntry.findMany({
    where: { accountId: ACCOUNT },
    orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
    take: 10,
  });
  expect(page.map((l) => l.id)).toEqual(['led_1']);
});

it('ProcessedMessage makes a consumer exactly-once', async () => {
  await prisma.processedMessage.create({ data: { consumerGroup: 'billing', messageId: 'm1' } });
  await prisma.processedMessage.create({ data: { consumerGroup: 'dedupe', messageId: 'm1' } });
  await expect(
    prisma.processedMessage.create({ data: { consumerGroup: 'billing', messageId: 'm1' } }),
  ).rejects.toMatchObject({ code: 'P2002' });
});

it(
  'stages JSON text in the outbox in one statement: ids in the ' +
    'array order, the text stored as it is, nothing before the ' +
    'commit',
  async () => {
    const messages = ['a', 'b', 'c'].map((n, i) => ({
      topic: 'outbox.spec',
      key: `k${i}`,
      value: JSON.stringify({ n, nested: { list: [i, 'x'] } }),
      headers: { 'x-message-id': `m-${n}` },
    }));
    const rolledBack = prisma.$transaction(async (tx) => {
      await enqueueSerializedOutbox(tx, messages);
      throw new Error('roll back');
    });
    await expect(rolledBack).rejects.toThrow('roll back');
    expect(await prisma.outboxMessage.count({ where: { topic: 'outbox.spec' } })).toBe(0);

    const ids = await prisma.$transaction((tx) => enqueueSerializedOutbox(tx, messages));
    const rows = await prisma.outboxMessage.findMany({ where: { topic: 'outbox.spec' }, orderBy: { id: 'asc' } });
    expect(rows.map((r) => r.id)).toEqual(ids);
    expect(rows.map((r) => r.key)).toEqual(['k0', 'k1', 'k2']);
    expect(rows.map((r) => r.value)).toEqual(messages.map((m) => m.value));
    expect(rows[2]!.headers).toEqual({ 'x-message-id': 'm-c' });
    await expect(enqueueSerializedOutbox(prisma, [{ ...messages[0]!, topic: '' }])).rejects.toThrow(
      'topic is required',
    );
  },
);

it('stores a canonical job with its sources', async () => {
  const now = new Date();
  await prisma.company.create({ data: { id: 'cmp_1', domain: 'acme.com', name: 'Acme' } });
  const job = await prisma.canonicalJob.create({
    data: {
      id: 'job_1',
      companyId: 'cmp_1',
      title: 'Senior Engineer',
      normalizedTitle: 'senior engineer',
      countryCode: 'DE',
      salaryMin: 70000.5,
      firstSeenAt: now,
      lastSeenAt: now,
      pReal: 0.93,
      blockingKey: 'acme|senior engineer|de',
      sources: {
        create: [
          {
            id: 'src_1',
            provider: 'provider_a',
            providerJobId: 'a-1',
            firstSeenAt: now,
            lastSeenAt: now,
            fields: ['title', 'salary'],
          },
          { id: 'src_2', provider: 'own_index', providerJobId: 'o-1', firstSeenAt: now, lastSeenAt: now },
        ],
      },
    },
    include: { sources: { orderBy: { id: 'asc' } } },
  });
  expect(job.status).toBe('open');
  expect(job.repostCount).toBe(0);
  expect(job.salaryMin).toBe(70000.5);
  expect(job.sources.map((s) => s.fields)).toEqual([['title', 'salary'], []]);
  await expect(
    prisma.jobSource.create({
      data: {
        id: 'src_3',
        canonicalJobId: 'job_1',
        provider: 'provider_a',
        providerJobId: 'a-1',
        firstSeenAt: now,
        lastSeenAt: now,
      },
    }),
  ).rejects.toMatchObject({ code: 'P2002' });
});

it('names statements by their text, up to a bound, so that each connection prepares them once', async () => {
  const names = preparedStatementNames(2);
  const a = names({ sql: 'SELECT 1' });
  expect(a).toMatch(/^p[\w-]{27}$/);
  expect(names({ sql: 'SELECT 1' })).toBe(a);
  const b = names({ sql: 'SELECT 2' });
  expect(b).not.toBe(a);
  // past the bound, new texts run unnamed (parsed and planned each time) and known ones keep their names
  expect(names({ sql: 'SELECT 3' })).toBeUndefined();
  expect(names({ sql: 'SELECT 2' })).toBe(b);
  // the client's statements run prepared: the same statement again, with other parameters, on the same pool
  for (const n of [1, 2, 3])
    expect(await prisma.$queryRaw<Array<{ n: number }>>`SELECT ${n}::int AS n`).toEqual([{ n }]);
  const prepared = await prisma.$queryRaw<
    Array<{ n: number }>
  >`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int AS n%'`;
  expect(prepared[0]!.n).toBe(1);
});

it('runs statements without JIT compilation (milliseconds-long statements would pay for it)', async () => {
  const [setting] = await prisma.$queryRaw<Array<{ jit: string }>>`SHOW jit`;
  expect(setting?.jit).toBe('off');
});

it('keeps moments exact on a server whose time zone is not UTC (its sessions run in UTC)', async () => {
  await prisma.$executeRawUnsafe(`ALTER DATABASE "${dbName}" SET timezone = 'America/New_York'`);
  const client = createPrismaClient(url, { poolSize: 1 });
  try {
    const moment = new Date('2026-12-07T10:15:30.123Z');
    await client.account.create({
      data: {
        id: 'acc_timezone',
        plan: Plan.pro,
        creditsRemaining: 1,
        creditsResetAt: moment,
        rateLimitLimit: 1,
        rateLimitWindowSeconds: 60,
      },
    });
    const read = await client.account.findUniqueOrThrow({ where: { id: 'acc_timezone' } });
    expect(read.creditsResetAt.toISOString()).toBe(moment.toISOString());
    const [stored] = await client.$queryRaw<Array<{ utc: string }>>`
      SELECT to_char(credits_reset_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS') AS utc
      FROM accounts WHERE id = 'acc_timezone'`;
    expect(stored?.utc).toBe('2026-12-07T10:15:30.123');
  } finally {
    await client.account.deleteMany({ where: { id: 'acc_timezone' } });
    await client.$disconnect();
    await prisma.$executeRawUnsafe(`ALTER DATABASE "${dbName}" RESET timezone`);
  }
});

it(
  'PrismaService.direct runs raw statements with pg on the ' + "client's own pool, prepared under the client's names",
  async () => {
    // one connection: a second pool (the adapter's own, had it not taken this one) would show another backend
    const service = new PrismaService(url, { poolSize: 1 });
    try {
      const [viaPrisma] = await service.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      const [viaPg] = await service.direct.$queryRaw<Array<{ pid: number }>>`SELECT pg_backend_pid() AS pid`;
      expect(viaPg!.pid).toBe(viaPrisma!.pid);
      // tagged template or Prisma.Sql, nested fragments and arrays included; rows as pg parses them
      const fragment = Prisma.sql`AND x > ${1}`;
      const rows = await service.direct.$queryRaw<Array<{ x: number; doc: { a: number }; at: Date }>>(
        Prisma.sql`SELECT x::int AS x, '{"a":1}'::jsonb AS doc, '2026-01-02T03:04:05Z'::timestamptz AS at FROM
        unnest(${[1, 2, 3]}::int[]) AS x WHERE true ${fragment} ORDER BY x`,
      );
      expect(rows).toEqual([
        { x: 2, doc: { a: 1 }, at: new Date('2026-01-02T03:04:05Z') },
        { x: 3, doc: { a: 1 }, at: new Date('2026-01-02T03:04:05Z') },
      ]);
      for (const n of [1, 2])
        expect(await service.direct.$queryRaw<Array<{ n: number }>>`SELECT ${n}::int + 0 AS n`).toEqual([{ n }]);
      const [prepared] = await service.direct.$queryRaw<
        Array<{ n: number }>
      >`SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE 'SELECT $1::int + 0 AS n%'`;
      expect(prepared!.n).toBe(1);
      // the changed rows' count, as $executeRaw gives it
      expect(await service.direct.$executeRaw`UPDATE accounts SET updated_at = updated_at WHERE id = ${ACCOUNT}`).toBe(
        1,
      );
      expect(
        await service.direct.$executeRaw`UPDATE accounts SET updated_at = updated_at WHERE id = ${'acct_none'}`,
      ).toBe(0);
    } finally {
      await service.$disconnect();
    }
  },
);

it('re-running the migrator applies nothing', async () => {
  await expect(deployMigrations({ databaseUrl: url })).resolves.toEqual({
    createdDatabase: false,
    applied: [],
    total: migrationNames.length,
  });
});

it('PrismaModule.forRoot provides a connected PrismaService', async () => {
  @Module({ imports: [PrismaModule.forRoot({ url, poolSize: 2 })] })
  class AppModule {}
  const app = await NestFactory.createApplicationContext(AppModule, { logger: false });
  try {
    const service = app.get(PrismaService);
    expect(await service.account.count()).toBe(1);
  } finally {
    await app.close();
  }
});
