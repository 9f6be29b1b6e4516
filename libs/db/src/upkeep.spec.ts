// The rule is pure; the statements run against the real PostgreSQL (the server of DATABASE_URL)
// in a throwaway database migrated as `node scripts/db/migrate.mjs deploy` does.
import { TableUpkeep, upkeepFor } from '../upkeep.mjs';
import { throwawayDatabase, type ThrowawayDatabase } from './testing/index.js';

describe('upkeepFor (autovacuum defaults)', () => {
  it('vacuums past 50 + 20 % dead rows, else analyzes past 50 + 10 % changes, else leaves the table', () => {
    expect(
      upkeepFor([
        { table: 'canonical_jobs', live: 30_000, dead: 90_000, modifiedSinceAnalyze: 300_000 },
        { table: 'job_sources', live: 1_000, dead: 251, modifiedSinceAnalyze: 5_000 },
        { table: 'companies', live: 1_000, dead: 249, modifiedSinceAnalyze: 149 },
        { table: 'refresh_sweeps', live: 0, dead: 0, modifiedSinceAnalyze: 51 },
        { table: 'outbox_messages', live: 0, dead: 51, modifiedSinceAnalyze: 0 },
      ]),
    ).toEqual([
      { table: 'canonical_jobs', statement: 'vacuum_analyze' },
      { table: 'job_sources', statement: 'vacuum_analyze' },
      { table: 'refresh_sweeps', statement: 'analyze' },
      { table: 'outbox_messages', statement: 'vacuum_analyze' },
    ]);
  });
});

describe('TableUpkeep on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  const log = { info: () => undefined, warn: () => undefined };

  beforeAll(async () => {
    db = await throwawayDatabase('upkeep');
  });
  afterAll(async () => {
    await db?.drop();
  });

  it(
    'vacuums and analyzes the churned tables the server left ' + 'alone, the outbox too, then has nothing to do',
    async () => {
      // 400 refresh bookkeeping rows, each rewritten: 400 dead, 400 live, 1,200 changes; 400 outbox
      // messages sent (inserted, then deleted): 400 dead, none live (the writing backend reports its
      // counts when it next flushes them, forced at its commit)
      await db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO refresh_passes (id, trigger, started_at, kind, provider) SELECT 'rfr_' || n,
        'schedule', now(), 'pass', 'own_index' FROM generate_series(1, 400) AS n`;
        await tx.$executeRaw`UPDATE refresh_passes SET trigger = 'request'`;
        await tx.$executeRaw`INSERT INTO outbox_messages (topic, key, value) SELECT 'search.page.charged', 'srch_' || n,
        '{}' FROM generate_series(1, 400) AS n`;
        await tx.$executeRaw`DELETE FROM outbox_messages`;
        await tx.$executeRaw`SELECT pg_stat_force_next_flush()`;
      });
      const stats = async (table = 'refresh_passes') =>
        (
          await db.prisma.$queryRaw<Array<{ dead: bigint; vacuumed: Date | null; analyzed: Date | null }>>`
        SELECT n_dead_tup AS dead, last_vacuum AS vacuumed, last_analyze AS analyzed FROM pg_stat_user_tables WHERE
          relname = ${table}`
        )[0]!;
      /** The dead rows once the writer's counts reached the shared statistics (10 s at most). */
      const deadRows = async (atLeast: number, table = 'refresh_passes') => {
        const deadline = Date.now() + 10_000;
        while (Number((await stats(table)).dead) < atLeast && Date.now() < deadline)
          await new Promise((resolve) => setTimeout(resolve, 100));
        return Number((await stats(table)).dead);
      };
      expect(await deadRows(400)).toBeGreaterThanOrEqual(400);
      expect(await deadRows(400, 'outbox_messages')).toBeGreaterThanOrEqual(400);

      const upkeep = new TableUpkeep(db.url, log);
      const actions = await upkeep.runOnce(true);
      expect(actions).toContainEqual({ table: 'refresh_passes', statement: 'vacuum_analyze' });
      expect(actions).toContainEqual({ table: 'outbox_messages', statement: 'vacuum_analyze' });
      for (const table of ['refresh_passes', 'outbox_messages']) {
        const after = await stats(table);
        expect(after.vacuumed).not.toBeNull();
        expect(after.analyzed).not.toBeNull();
        expect(Number(after.dead)).toBe(0);
      }
      expect(await upkeep.runOnce(true)).not.toContainEqual(expect.objectContaining({ table: 'refresh_passes' }));
      // churned again at once: left alone for UPKEEP_MIN_GAP_MS although past the thresholds
      await db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`UPDATE refresh_passes SET trigger = 'schedule'`;
        await tx.$executeRaw`SELECT pg_stat_force_next_flush()`;
      });
      expect(await deadRows(400)).toBeGreaterThanOrEqual(400);
      expect(await upkeep.runOnce(true)).not.toContainEqual(expect.objectContaining({ table: 'refresh_passes' }));
      // grown past twice its rows at its last upkeep (a store just filled): analyzed at once, gap or not
      await db.prisma.$transaction(async (tx) => {
        await tx.$executeRaw`INSERT INTO refresh_passes (id, trigger, started_at, kind, provider) SELECT 'rfr_x' || n,
        'schedule', now(), 'pass', 'own_index' FROM generate_series(1, 1000) AS n`;
        await tx.$executeRaw`SELECT pg_stat_force_next_flush()`;
      });
      const liveRows = async () =>
        Number(
          (
            await db.prisma.$queryRaw<Array<{ live: bigint }>>`
              SELECT n_live_tup AS live FROM pg_stat_user_tables WHERE relname = 'refresh_passes'`
          )[0]!.live,
        );
      for (const deadline = Date.now() + 10_000; (await liveRows()) < 1_400 && Date.now() < deadline;)
        await new Promise((resolve) => setTimeout(resolve, 100));
      expect(await upkeep.runOnce(true)).toContainEqual(expect.objectContaining({ table: 'refresh_passes' }));
      await upkeep.stop();
    },
  );
});
