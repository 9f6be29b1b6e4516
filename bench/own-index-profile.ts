// The profile of bench/own-index.ts: the own index leg's store query as dedupe builds it under
// EXPLAIN (ANALYZE, BUFFERS), then what `OwnIndexStore.page` does, in this process with dedupe's own
// code from its build (its own pool on the same database): that query, then the load of its jobs,
// timed apart, and the load's statements (captured from its pool) under EXPLAIN ANALYZE.
import type pg from 'pg';
import type { Filters, Plan } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import { median } from './stack.js';

/** What the dedupe build exports that this benchmark runs (typed here: an app is not a dependency of the bench). */
interface StorePageQuery {
  filters: Filters;
  scope: { providers_routable: string[] };
  want: number;
  after: null;
  now: Date;
}
interface SqlStatement {
  text: string;
  values: unknown[];
}
/** What `CanonicalJobRepository` reads through: `PrismaService.direct`, raw statements on `pg`. */
interface DirectStatements {
  $queryRaw(sql: SqlStatement): Promise<unknown[]>;
}

export interface Explained {
  executionMs: number;
  planningMs: number;
  plan: string;
}

export interface Profile {
  plan: Plan;
  filterSet: number;
  filters: Filters;
  jobs: number;
  query: Explained;
  /** in this process, what OwnIndexStore.page does: the store query, then the load of its jobs (medians) */
  idQueryMs: number;
  loadMs: number;
  loadStatements: { sql: string; explained: Explained }[];
}

export interface StoreProfiler {
  /** The profile of one filter set (number `filterSet` of the benchmark's cycle) as `plan` searches it. */
  profile(plan: 'pro' | 'starter', filterSet: number, filters: Filters): Promise<Profile>;
  close(): Promise<void>;
}

/** Loads dedupe's build; `db` runs the EXPLAINs, a pool of its own on `databaseUrl` runs dedupe's code. */
export async function openStoreProfiler({
  db,
  databaseUrl,
  limit,
}: {
  db: pg.Client;
  databaseUrl: string;
  limit: number;
}): Promise<StoreProfiler> {
  await import('reflect-metadata');
  const dedupeDist = new URL('../../apps/dedupe/dist/', import.meta.url);
  const { ownIndexPageQuery } = (await import(new URL('own-index/own-index-query.js', dedupeDist).href)) as {
    ownIndexPageQuery(q: StorePageQuery): SqlStatement;
  };
  const { CanonicalJobRepository } = (await import(
    new URL('canonical-jobs/canonical-job.repository.js', dedupeDist).href
  )) as {
    CanonicalJobRepository: new (
      prisma: { direct: DirectStatements },
      outbox: unknown,
    ) => { load(ids: readonly string[]): Promise<unknown[]> };
  };
  const { PooledStatements, createPgPool, preparedStatementNames } = (await import('@jobs/db')) as unknown as {
    PooledStatements: new (pool: pg.Pool, names: (query: { sql: string }) => string) => DirectStatements;
    createPgPool(url: string, options: { poolSize: number }): pg.Pool;
    preparedStatementNames(): (query: { sql: string }) => string;
  };
  // dedupe's page keys and job loads go through `PrismaService.direct` (pg on the adapter's pool):
  // the same here, on a pool whose statements are captured for EXPLAIN
  const pool = createPgPool(databaseUrl, { poolSize: 2 });
  let captured: SqlStatement[] | null = null;
  const send = pool.query.bind(pool) as (config: { text: string; values?: unknown[] }) => Promise<unknown>;
  (pool as unknown as { query: typeof send }).query = (config) => {
    captured?.push({ text: config.text, values: config.values ?? [] });
    return send(config);
  };
  const direct = new PooledStatements(pool, preparedStatementNames());
  const repository = new CanonicalJobRepository({ direct }, null);

  /** EXPLAIN (ANALYZE, BUFFERS) of one statement, `runs` times; the median execution time and the last plan. */
  async function explain(text: string, values: unknown[], runs = 3): Promise<Explained> {
    const times: number[] = [];
    let planning = 0;
    let plan = '';
    for (let i = 0; i < runs; i++) {
      const result = await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${text}`, values);
      plan = result.rows.map((r) => r['QUERY PLAN']).join('\n');
      times.push(Number(/Execution Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN));
      planning = Number(/Planning Time: ([\d.]+) ms/.exec(plan)?.[1] ?? NaN);
    }
    return { executionMs: median(times), planningMs: planning, plan };
  }

  async function profile(plan: 'pro' | 'starter', filterSet: number, filters: Filters): Promise<Profile> {
    const query: StorePageQuery = {
      filters,
      scope: { providers_routable: providersForPlan(plan) },
      want: limit,
      after: null,
      now: new Date(),
    };
    const sql = ownIndexPageQuery(query);
    const explained = await explain(sql.text, sql.values);
    const idTimes: number[] = [];
    const loadTimes: number[] = [];
    let jobs = 0;
    let statements: SqlStatement[] = [];
    for (let run = 0; run < 7; run++) {
      let t = performance.now();
      const ids = ((await direct.$queryRaw(sql)) as { id: string }[]).map((r) => r.id);
      idTimes.push(performance.now() - t);
      captured = [];
      t = performance.now();
      jobs = (await repository.load(ids)).length;
      loadTimes.push(performance.now() - t);
      statements = captured;
      captured = null;
    }
    const loadStatements = [];
    for (const statement of statements)
      loadStatements.push({ sql: statement.text, explained: await explain(statement.text, statement.values) });
    return {
      plan,
      filterSet,
      filters,
      jobs,
      query: explained,
      idQueryMs: median(idTimes),
      loadMs: median(loadTimes),
      loadStatements,
    };
  }

  return { profile, close: () => pool.end() };
}

export interface TableStatistics {
  relname: string;
  n_live_tup: string;
  n_dead_tup: string;
  n_mod_since_analyze: string;
  analyzed: Date | null;
}

/** The planner's statistics of `tables` (rows changed since they were last analyzed, and when) and autovacuum's. */
export async function plannerStatistics(
  db: pg.Client,
  tables: string[],
): Promise<{ statistics: TableStatistics[]; autovacuum: string }> {
  const statistics = await db.query<TableStatistics>(
    `SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze, ` +
      `greatest(last_analyze, last_autoanalyze) AS analyzed FROM ` +
      `pg_stat_user_tables WHERE relname = ANY($1::text[]) ORDER BY ` +
      `relname`,
    [tables],
  );
  const autovacuum = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]!.autovacuum;
  return { statistics: statistics.rows, autovacuum };
}
