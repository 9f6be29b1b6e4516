/**
 * The own index leg of a sync search on a full store, for the issue target "`own_index` leg p95
 * <= 50 ms at `limit` 100 on the full simulated market in the store". The leg is a store query
 * only: dedupe answers `own-index.query.requested` from PostgreSQL
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
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import type { Filters } from '@jobs/contracts';
import { FILTER_SETS } from './filter-sets.js';
import { legHistogram, minus } from './own-index-histogram.js';
import { openStoreProfiler, plannerStatistics, type Profile } from './own-index-profile.js';
import { ownIndexReport, type SearchSample } from './own-index-report.js';
import { baseUrl, createBenchAccount, median } from './stack.js';
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

const log = (line: string) => console.error(`[own-index ${new Date().toISOString().slice(11, 19)}] ${line}`);
const int = (n: number) => n.toLocaleString('en-US');
const legHistogramNow = () => legHistogram(dedupeMetricsUrl, wantBand);

/** The filter sets cycled through: the realistic ones, then broad ones (few or no conditions). */
const BROAD: Filters[] = [{}, { remote: true }, { country_code_or: ['US'] }, { posted_within_days: 7 }];
const CYCLE: Filters[] = [...FILTER_SETS, ...BROAD];

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
const sourcesByProvider = Object.entries(store.sourcesByProvider)
  .map(([p, n]) => `${p} ${int(n)}`)
  .join(', ');
log(
  `store: ${int(store.openJobs)} open canonical jobs (${int(store.allJobs)} in all), ` +
    `${int(store.sources)} sources (${sourcesByProvider})`,
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

const samples: SearchSample[] = [];
const first = await legHistogramNow();
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
  const now = await legHistogramNow();
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

const profiler = await openStoreProfiler({ db, databaseUrl, limit });
/** The planner's statistics of the two tables the leg reads. */
const { statistics, autovacuum } = await plannerStatistics(db, TABLES.slice(0, 2));
const profiles: Profile[] = [];
for (const plan of ['pro', 'starter'] as const) {
  const filterSet = slowestFilterSet(plan);
  if (filterSet !== null) profiles.push(await profiler.profile(plan, filterSet, CYCLE[filterSet]!));
}
await profiler.close();
await db.end();

// ---------------------------------------------------------------- 4. report

console.log(
  ownIndexReport({
    store,
    searches,
    limit,
    wantBand,
    filterSets: CYCLE.length,
    broad: BROAD,
    samples,
    whole,
    bounds,
    profiles,
    statistics,
    autovacuum,
    vacuum,
    loadBefore,
  }),
);
