/**
 * The own index leg of a sync search on a full store, for the issue target "`own_index` leg p95
 * <= 50 ms at `limit` 100 on the full simulated market in the store". The leg is a store query
 * only: dedupe answers `provider.records.fetched` (no records, an `index_query`) from PostgreSQL
 * and records its duration in `own_index_query_seconds` (`want_band` 51-100 for limit > 50).
 *
 * 1. Fill (skipped with --skip-fill or BENCH_SKIP_FILL=1): the whole simulated market into the
 *    store through Kafka and dedupe's normal merge (bench/store-fill.ts), then the store's size.
 * 2. Measure: a Pro and a Starter account (bench/stack.ts); BENCH_SEARCHES (200) sequential
 *    `POST /v1/jobs/search` (`own_only`, `limit` BENCH_LIMIT, 100), cycling through
 *    bench/filter-sets.ts and four broad filter sets; every BENCH_STARTER_EVERY-th (4th) cycle of
 *    filter sets is sent by the Starter account (its routable-source EXISTS is the slower SQL).
 *    dedupe's histogram is scraped before and after (the report's bucket p50/p95 come from the
 *    difference) and after every search: a search that added exactly one observation gives that
 *    observation's exact duration (the `_sum` difference), so exact p50/p95 stand beside the
 *    buckets. The whole searches' client-side p50/p95 beside them.
 * 3. Profile: for each plan, the filter set with the slowest median leg: its store query as
 *    dedupe builds it (`ownIndexPageQuery` of apps/dedupe, loaded from the dedupe build) under
 *    `EXPLAIN (ANALYZE, BUFFERS)`; then what `OwnIndexStore.page` does, in this process with
 *    dedupe's own code (same build, its own pool on the same database): that query, then
 *    `CanonicalJobRepository.load` of its ids, timed apart (7 runs, medians), and the load's
 *    statements (captured from its pool) under EXPLAIN ANALYZE. The planner's statistics and dead
 *    rows of the tables are reported beside it (a server without autovacuum never analyzes
 *    them); --vacuum (BENCH_VACUUM=1) runs `VACUUM (ANALYZE)` on them before measuring.
 * 4. One Markdown table with the date and the load average.
 *
 *   STACK_SLOT=5 node scripts/stack.mjs serve            # in another shell (or any stack)
 *   BASE_URL=http://127.0.0.1:25080 ADMIN_URL=http://127.0.0.1:25081 PROVIDER_SIM_URL=http://127.0.0.1:25090 \
 *   KAFKA_BROKERS=127.0.0.1:25092 DATABASE_URL=postgresql://postgres@127.0.0.1:5432/jobs_test_s5 \
 *   DEDUPE_METRICS_URL=http://127.0.0.1:25103/metrics npm run bench -- own-index
 *
 * Options: --skip-fill (BENCH_SKIP_FILL=1), --vacuum (BENCH_VACUUM=1), BENCH_SEARCHES (200),
 * BENCH_LIMIT (100), BENCH_STARTER_EVERY (4; 0: Pro only), BENCH_SETTLE_MS (10,000),
 * BENCH_FILL_TIMEOUT_MS (3,600,000); where the stack is: BASE_URL, ADMIN_URL, ADMIN_TOKEN,
 * PROVIDER_SIM_URL, KAFKA_BROKERS, DATABASE_URL, DEDUPE_METRICS_URL (the dev stack of
 * `npm run up` by default).
 */
import { cpus, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Filters, Plan } from '@jobs/contracts';
import { scrape } from '@jobs/e2e-support';
import { providersForPlan } from '@jobs/plans';
import { FILTER_SETS } from './filter-sets.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';
import { fillStore, storeCounts, type StoreCounts } from './store-fill.js';

const { values: flags } = parseArgs({ options: { 'skip-fill': { type: 'boolean' }, vacuum: { type: 'boolean' } } });
const skipFill = flags['skip-fill'] ?? process.env['BENCH_SKIP_FILL'] === '1';
const vacuum = flags.vacuum ?? process.env['BENCH_VACUUM'] === '1';
const searches = Number(process.env['BENCH_SEARCHES'] ?? 200);
const limit = Number(process.env['BENCH_LIMIT'] ?? 100);
const starterEvery = Number(process.env['BENCH_STARTER_EVERY'] ?? 4);
const simUrl = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const databaseUrl = process.env['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/jobs';
const dedupeMetricsUrl = process.env['DEDUPE_METRICS_URL'] ?? 'http://127.0.0.1:9103/metrics';
const wantBand = limit > 50 ? '51-100' : '1-50';
const HISTOGRAM = 'own_index_query_seconds';

const log = (line: string) => console.error(`[own-index ${new Date().toISOString().slice(11, 19)}] ${line}`);
const ms = (value: number) => (value >= 100 ? value.toFixed(0) : value.toFixed(1));
const int = (n: number) => n.toLocaleString('en-US');

/** The filter sets cycled through: the realistic ones, then broad ones (few or no conditions). */
const BROAD: Filters[] = [{}, { remote: true }, { country_code_or: ['US'] }, { posted_within_days: 7 }];
const CYCLE: Filters[] = [...FILTER_SETS, ...BROAD];

// ---------------------------------------------------------------- dedupe's histogram

interface Histogram {
  /** upper bound (s, Infinity for +Inf) -> cumulative count */
  buckets: Map<number, number>;
  sum: number;
  count: number;
}

async function legHistogram(): Promise<Histogram> {
  const { status, exposition } = await scrape(dedupeMetricsUrl);
  if (status !== 200) throw new Error(`${dedupeMetricsUrl} answered ${status}`);
  const ours = exposition.samples.filter((s) => s.name.startsWith(HISTOGRAM) && s.labels['want_band'] === wantBand);
  const buckets = new Map(
    ours
      .filter((s) => s.name === `${HISTOGRAM}_bucket`)
      .map((s) => [s.labels['le'] === '+Inf' ? Infinity : Number(s.labels['le']), s.value]),
  );
  return {
    buckets,
    sum: ours.find((s) => s.name === `${HISTOGRAM}_sum`)?.value ?? 0,
    count: ours.find((s) => s.name === `${HISTOGRAM}_count`)?.value ?? 0,
  };
}

function minus(after: Histogram, before: Histogram): Histogram {
  const buckets = new Map([...after.buckets].map(([le, n]) => [le, n - (before.buckets.get(le) ?? 0)]));
  return { buckets, sum: after.sum - before.sum, count: after.count - before.count };
}

const boundMs = (le: number) => (le === Infinity ? '+Inf' : `${+(le * 1000).toFixed(1)} ms`);

/** The bucket holding the p-th percentile of a histogram (difference), e.g. "25-50 ms". */
function bucketOf(h: Histogram, p: number): string {
  if (h.count <= 0) return 'n/a';
  const rank = Math.max(1, Math.ceil((p / 100) * h.count));
  let lower = 0;
  for (const le of [...h.buckets.keys()].sort((a, b) => a - b)) {
    if ((h.buckets.get(le) ?? 0) >= rank)
      return le === Infinity ? `> ${boundMs(lower)}` : `${+(lower * 1000).toFixed(1)}-${boundMs(le)}`;
    lower = le;
  }
  return 'n/a';
}

/** The histogram (difference) of a subset of exact observations, on the same bucket bounds. */
function histogramOf(seconds: number[], bounds: number[]): Histogram {
  return {
    buckets: new Map(bounds.map((le) => [le, seconds.filter((s) => s <= le).length])),
    sum: seconds.reduce((a, b) => a + b, 0),
    count: seconds.length,
  };
}

// ---------------------------------------------------------------- 1. fill

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const loadBefore = loadavg();

if (!skipFill) {
  const fill = await fillStore({
    simUrl,
    brokers,
    db,
    dedupeMetricsUrl,
    settleMs: Number(process.env['BENCH_SETTLE_MS'] ?? 10_000),
    timeoutMs: Number(process.env['BENCH_FILL_TIMEOUT_MS'] ?? 3_600_000),
    log,
  });
  log(
    `fill ${fill.refreshId}: ${Object.entries(fill.records)
      .map(([p, n]) => `${p} ${n}`)
      .join(', ')}; read in ${fill.readSeconds.toFixed(0)} s, caught up after ${fill.caughtUpSeconds.toFixed(0)} s`,
  );
}
/** The tables the leg reads. */
const TABLES = ['canonical_jobs', 'job_sources', 'companies'];
if (vacuum) {
  const started = performance.now();
  await db.query(`VACUUM (ANALYZE) ${TABLES.join(', ')}`);
  log(`VACUUM (ANALYZE) ${TABLES.join(', ')} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}
const store: StoreCounts = await storeCounts(db);
log(
  `store: ${int(store.openJobs)} open canonical jobs (${int(store.allJobs)} in all), ${int(store.sources)} sources (${Object.entries(
    store.sourcesByProvider,
  )
    .map(([p, n]) => `${p} ${int(n)}`)
    .join(', ')})`,
);

// ---------------------------------------------------------------- 2. measure

const accounts: Record<'pro' | 'starter', string> = {
  pro: (
    await createBenchAccount({ plan: 'pro', credits: 10_000_000, rate_limit: { limit: 1_000_000, window_seconds: 60 } })
  ).liveKey,
  starter: (
    await createBenchAccount({
      plan: 'starter',
      credits: 10_000_000,
      rate_limit: { limit: 1_000_000, window_seconds: 60 },
    })
  ).liveKey,
};

interface SearchSample {
  plan: 'pro' | 'starter';
  filterSet: number;
  ok: boolean;
  jobs: number;
  clientMs: number;
  /** this search's leg (s), when it added exactly one observation to dedupe's histogram */
  legSeconds: number | null;
}

const samples: SearchSample[] = [];
const first = await legHistogram();
let previous = first;
log(
  `${searches} sequential searches, own_only, limit ${limit}, ` +
    `${CYCLE.length} filter sets, ` +
    `${starterEvery > 0 ? `1 cycle in ${starterEvery} by the Starter account` : 'Pro only'} ` +
    `...`,
);
for (let i = 0; i < searches; i++) {
  const filterSet = i % CYCLE.length;
  const plan = starterEvery > 0 && Math.floor(i / CYCLE.length) % starterEvery === starterEvery - 1 ? 'starter' : 'pro';
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${accounts[plan]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ filters: CYCLE[filterSet], waterfall: { strategy: 'own_only' }, limit }),
  });
  const body = (await res.json().catch(() => null)) as { data?: unknown[] } | null;
  const clientMs = performance.now() - started;
  const now = await legHistogram();
  const added = minus(now, previous);
  previous = now;
  samples.push({
    plan,
    filterSet,
    ok: res.status === 200,
    jobs: body?.data?.length ?? 0,
    clientMs,
    legSeconds: added.count === 1 ? added.sum : null,
  });
  if (res.status !== 200)
    log(`search ${i} (${plan}, filter set ${filterSet}) answered ${res.status}: ${JSON.stringify(body).slice(0, 300)}`);
  if ((i + 1) % 50 === 0) log(`${i + 1} searches done`);
}
const whole = minus(previous, first);
const bounds = [...whole.buckets.keys()].sort((a, b) => a - b);

// ---------------------------------------------------------------- 3. profile

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

const median = (values: number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

interface Explained {
  executionMs: number;
  planningMs: number;
  plan: string;
}

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

interface Profile {
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

async function profile(plan: 'pro' | 'starter', filterSet: number): Promise<Profile> {
  const query: StorePageQuery = {
    filters: CYCLE[filterSet]!,
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
    filters: CYCLE[filterSet]!,
    jobs,
    query: explained,
    idQueryMs: median(idTimes),
    loadMs: median(loadTimes),
    loadStatements,
  };
}

/** The plan's filter set with the slowest median leg (client time where no leg was attributed). */
function slowestFilterSet(plan: 'pro' | 'starter'): number | null {
  const byFilterSet = new Map<number, number[]>();
  for (const s of samples.filter((x) => x.plan === plan && x.ok))
    byFilterSet.set(s.filterSet, [
      ...(byFilterSet.get(s.filterSet) ?? []),
      s.legSeconds !== null ? s.legSeconds * 1000 : s.clientMs,
    ]);
  const ranked = [...byFilterSet].sort((a, b) => median(b[1]) - median(a[1]));
  return ranked[0]?.[0] ?? null;
}

/** The planner's statistics of the two tables the leg reads: rows changed since they were last analyzed, and when. */
const statistics = await db.query<{
  relname: string;
  n_live_tup: string;
  n_dead_tup: string;
  n_mod_since_analyze: string;
  analyzed: Date | null;
}>(
  `SELECT relname, n_live_tup, n_dead_tup, n_mod_since_analyze, ` +
    `greatest(last_analyze, last_autoanalyze) AS analyzed FROM ` +
    `pg_stat_user_tables WHERE relname = ANY($1::text[]) ORDER BY ` +
    `relname`,
  [TABLES.slice(0, 2)],
);
const autovacuum = (await db.query<{ autovacuum: string }>('SHOW autovacuum')).rows[0]!.autovacuum;

const profiles: Profile[] = [];
for (const plan of ['pro', 'starter'] as const) {
  const filterSet = slowestFilterSet(plan);
  if (filterSet !== null) profiles.push(await profile(plan, filterSet));
}
await pool.end();
await db.end();

// ---------------------------------------------------------------- 4. report

const loadAfter = loadavg();
const groups = [
  { name: 'all', of: samples },
  { name: 'Pro', of: samples.filter((s) => s.plan === 'pro') },
  { name: 'Starter', of: samples.filter((s) => s.plan === 'starter') },
];
const cell = (f: (g: (typeof groups)[number]) => string) => `| ${groups.map(f).join(' | ')} |`;
const exact = (g: (typeof groups)[number]) =>
  g.of.flatMap((s) => (s.legSeconds === null ? [] : [s.legSeconds * 1000])).sort((a, b) => a - b);
const client = (g: (typeof groups)[number]) =>
  g.of
    .filter((s) => s.ok)
    .map((s) => s.clientMs)
    .sort((a, b) => a - b);
const legOf = (g: (typeof groups)[number]) =>
  g.name === 'all'
    ? whole
    : histogramOf(
        g.of.flatMap((s) => (s.legSeconds === null ? [] : [s.legSeconds])),
        bounds,
      );
const profileOf = (g: (typeof groups)[number]) =>
  profiles.find((p) => (g.name === 'Pro' ? p.plan === 'pro' : g.name === 'Starter' ? p.plan === 'starter' : false));
const describe = (f: Filters) => (Object.keys(f).length === 0 ? '`{}`' : `\`${JSON.stringify(f)}\``);

const out: string[] = [];
out.push(
  `own_index leg, ` +
    `${new Date().toISOString().slice(0, 16).replace('T', ' ')} ` +
    `UTC, ${cpus().length} cores, load average ` +
    `${loadBefore.map((l) => l.toFixed(1)).join(' / ')} before, ` +
    `${loadAfter.map((l) => l.toFixed(1)).join(' / ')} after (1 / ` +
    `5 / 15 min).`,
);
out.push(
  `Store: ${int(store.openJobs)} open canonical jobs ` +
    `(${int(store.allJobs)} in all), ${int(store.sources)} ` +
    `sources. ${searches} sequential \`own_only\` searches, limit ` +
    `${limit}, ${CYCLE.length} filter sets (bench/filter-sets.ts ` +
    `+ ${BROAD.map(describe).join(', ')}).`,
);
out.push('');
out.push(`| | ${groups.map((g) => g.name).join(' | ')} |`);
out.push(`|---|${groups.map(() => '---:').join('|')}|`);
out.push(
  `| store: open canonical jobs / sources ` +
    `${cell((g) => (g.name === 'all' ? `${int(store.openJobs)} / ${int(store.sources)}` : ''))}`,
);
out.push(`| searches (non-200) ${cell((g) => `${g.of.length} (${g.of.filter((s) => !s.ok).length})`)}`);
out.push(`| jobs per answer, median ${cell((g) => String(median(g.of.map((s) => s.jobs))))}`);
out.push(
  `| leg observations (\`want_band\` ${wantBand}) ` +
    `${cell((g) => (g.name === 'all' ? `${whole.count}` : `${exact(g).length} attributed`))}`,
);
out.push(`| leg p50 bucket ${cell((g) => bucketOf(legOf(g), 50))}`);
out.push(`| leg p95 bucket ${cell((g) => bucketOf(legOf(g), 95))}`);
out.push(
  `| leg p50 / p95, exact (ms) ` +
    `${cell((g) => (exact(g).length ? `${ms(percentile(exact(g), 50))} / ${ms(percentile(exact(g), 95))}` : 'n/a'))}`,
);
out.push(`| leg mean (ms) ${cell((g) => (legOf(g).count > 0 ? ms((legOf(g).sum / legOf(g).count) * 1000) : 'n/a'))}`);
out.push(
  `| whole search p50 / p95, client (ms) ` +
    `${cell((g) => (client(g).length ? `${ms(percentile(client(g), 50))} / ${ms(percentile(client(g), 95))}` : 'n/a'))}`,
);
out.push(
  `| profiled filter set (slowest median leg) ` +
    `${cell((g) => (profileOf(g) ? `#${profileOf(g)!.filterSet} ${describe(profileOf(g)!.filters)}` : ''))}`,
);
out.push(
  `| EXPLAIN ANALYZE store query: execution (planning) ms ` +
    `${cell((g) => (profileOf(g) ? `${ms(profileOf(g)!.query.executionMs)} (${ms(profileOf(g)!.query.planningMs)})` : ''))}`,
);
out.push(
  `| EXPLAIN ANALYZE load statements, sum of execution ms ` +
    `${cell((g) => (profileOf(g) ? ms(profileOf(g)!.loadStatements.reduce((a, s) => a + s.explained.executionMs, 0)) : ''))}`,
);
out.push(
  `| tables: live / dead rows, rows changed since analyzed ` +
    `(autovacuum ` +
    `${autovacuum}${vacuum ? ', VACUUM (ANALYZE) before measuring' : ''}) ` +
    `${cell((g) => (g.name === 'all' ? statistics.rows.map((r) => `${r.relname} ${int(Number(r.n_live_tup))} / ${int(Number(r.n_dead_tup))}, ${int(Number(r.n_mod_since_analyze))}${r.analyzed ? '' : ' (never analyzed)'}`).join('; ') : ''))}`,
);
out.push(
  `| in process, dedupe's code: store query / load of the jobs ` +
    `(ms, medians of 7) ` +
    `${cell((g) => (profileOf(g) ? `${ms(profileOf(g)!.idQueryMs)} / ${ms(profileOf(g)!.loadMs)}` : ''))}`,
);
const target = bucketOf(whole, 95);
const limitMs = 50;
const p95Upper = (() => {
  const rank = Math.max(1, Math.ceil(0.95 * whole.count));
  return [...whole.buckets.keys()].sort((a, b) => a - b).find((le) => (whole.buckets.get(le) ?? 0) >= rank);
})();
out.push('');
out.push(
  `Target \`own_index\` leg p95 <= ${limitMs} ms: ` +
    `${whole.count === 0 ? 'no observations' : p95Upper !== undefined && p95Upper * 1000 <= limitMs ? `met (p95 in ${target})` : `NOT met (p95 in ${target})`}.`,
);
for (const p of profiles) {
  out.push('');
  out.push(
    `${p.plan} plan, filter set #${p.filterSet} ` +
      `${describe(p.filters)}, ${p.jobs} jobs: the store query ` +
      `(EXPLAIN (ANALYZE, BUFFERS), median of 3 runs: ` +
      `${ms(p.query.executionMs)} ms; the plan of the last run)`,
  );
  out.push('```');
  out.push(p.query.plan);
  out.push('```');
  for (const s of p.loadStatements)
    out.push(`- load: ${ms(s.explained.executionMs)} ms \`${s.sql.replace(/\s+/g, ' ').slice(0, 140)}...\``);
  const slowest = [...p.loadStatements].sort((a, b) => b.explained.executionMs - a.explained.executionMs)[0];
  if (slowest) {
    out.push(`The slowest load statement's plan:`);
    out.push('```');
    out.push(slowest.explained.plan.replace(/'\{[^}]{60,}\}'/g, (list) => `${list.slice(0, 50)}...}'`));
    out.push('```');
  }
}
console.log(out.join('\n'));
