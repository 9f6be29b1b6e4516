/**
 * bench:freshness: whether the freshness bound holds at scale. With the store holding
 * BENCH_TARGET_JOBS (100,000) open jobs and the stack at its own REFRESH_INTERVAL_MS (60 s by
 * default), is every open job re-verified with every partner that lists it within the bound
 * docs/store.md states (REFRESH_BUCKETS x REFRESH_INTERVAL_MS)?
 *
 * 1. Fill (skipped with --skip-fill, or when the store holds BENCH_TARGET_JOBS open jobs already):
 *    every provider's whole listing read over the simulator's HTTP API and merged by dedupe
 *    through its normal path (bench/store-fill.ts, on the pass topic: two parts at a time). The
 *    simulated market is sized by the stack's WORLD_SLOTS: 121,000 requisitions make about
 *    100,000 open openings.
 * 2. Warm-up: until every provider's oldest listing is within the bound
 *    (at most BENCH_WARMUP_MAX_MS): jobs filled long ago wait for their first round.
 * 3. Measure over BENCH_ROUNDS rounds (REFRESH_BUCKETS by default: one whole bound): every
 *    BENCH_SAMPLE_MS the age of every listed source of an open job per provider (now minus
 *    `job_sources.last_seen_at`, dedupe's own `verificationAges` statement, and apart those at
 *    companies with a domain, which rounds read by company, not by listing id); the rounds that started in the
 *    window (duration: start to the merge of their last sweep) and dedupe's last
 *    `store_verification` measure (what `store_verification_*` and GET /admin/refresh/{id} show);
 *    the CPU of every process of the stack over the window (bench/proc-cpu.ts; this process's own
 *    PostgreSQL backend taken out).
 * 4. Prints a table per provider, the max age per minute, and the CPU per process.
 *
 *   WORLD_SLOTS=121000 STACK_SLOT=3 node scripts/stack.mjs serve      # in another shell
 *   STACK_PIDS_FILE=.local/run/s3/pids.json PROVIDER_SIM_URL=http://127.0.0.1:23090 \
 *   KAFKA_BROKERS=127.0.0.1:23092 DATABASE_URL=postgresql://postgres@127.0.0.1:5432/jobs_test_s3 \
 *   DEDUPE_METRICS_URL=http://127.0.0.1:23103/metrics npm run bench:freshness
 *
 * Options: --skip-fill (BENCH_SKIP_FILL=1), BENCH_TARGET_JOBS (100,000), BENCH_ROUNDS
 * (REFRESH_BUCKETS), BENCH_SAMPLE_MS (30,000), BENCH_WARMUP_MAX_MS (900,000),
 * BENCH_FILL_TIMEOUT_MS (3,600,000); where the stack is: STACK_PIDS_FILE, PROVIDER_SIM_URL,
 * KAFKA_BROKERS, DATABASE_URL, DEDUPE_METRICS_URL (the dev stack of `npm run up` by default).
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { PROVIDER_SLUGS } from '@jobs/contracts';
import {
  GROUP,
  processCpuMs,
  processEnv,
  SEARCH_PATH_COLUMNS,
  servicePids,
  SHORT_COLUMN_NAMES,
  snapshot,
  stackLocation,
  usageBetween,
} from './proc-cpu.js';
import { percentile } from './stack.js';
import { fillStore, storeCounts } from './store-fill.js';

const { values: flags } = parseArgs({ options: { 'skip-fill': { type: 'boolean' } } });
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const services = servicePids(pidsFile);
const dedupeEnv = processEnv(services['dedupe']!);
const intervalMs = Number(dedupeEnv['REFRESH_INTERVAL_MS'] ?? 60_000);
const buckets = Number(dedupeEnv['REFRESH_BUCKETS'] ?? 10);
const boundS = (buckets * intervalMs) / 1000;
const targetJobs = Number(process.env['BENCH_TARGET_JOBS'] ?? 100_000);
const rounds = Number(process.env['BENCH_ROUNDS'] ?? buckets);
const sampleMs = Number(process.env['BENCH_SAMPLE_MS'] ?? 30_000);
const warmupMaxMs = Number(process.env['BENCH_WARMUP_MAX_MS'] ?? 900_000);
const skipFill = flags['skip-fill'] ?? process.env['BENCH_SKIP_FILL'] === '1';
const simUrl = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const databaseUrl =
  process.env['DATABASE_URL'] ?? dedupeEnv['DATABASE_URL'] ?? 'postgresql://postgres@127.0.0.1:5432/jobs';
const dedupeMetricsUrl = process.env['DEDUPE_METRICS_URL'] ?? 'http://127.0.0.1:9103/metrics';
const location = stackLocation(pidsFile, databaseUrl, dedupeEnv['REDIS_URL']);

const log = (line: string) => console.error(`[freshness ${new Date().toISOString().slice(11, 19)}] ${line}`);
const int = (n: number) => n.toLocaleString('en-US');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const ownBackend = (await db.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

// ---------------------------------------------------------------- 1. fill

let store = await storeCounts(db);
const fillStarted = performance.now();
if (!skipFill && store.openJobs < targetJobs) {
  log(
    `store: ${int(store.openJobs)} open jobs; filling it with the ` +
      `simulated market (WORLD_SLOTS of the stack: ` +
      `${processEnv(services['provider-sim']!)['WORLD_SLOTS'] ?? 'default'}) ` +
      `...`,
  );
  const fill = await fillStore({
    simUrl,
    brokers,
    db,
    dedupeMetricsUrl,
    settleMs: 10_000,
    timeoutMs: Number(process.env['BENCH_FILL_TIMEOUT_MS'] ?? 3_600_000),
    log,
    topic: 'passes',
    parallelPages: 8,
  });
  log(
    `fill ${fill.refreshId}: ${Object.entries(fill.records)
      .map(([p, n]) => `${p} ${int(n)}`)
      .join(', ')}; read in ${fill.readSeconds.toFixed(0)} s, caught up after ${fill.caughtUpSeconds.toFixed(0)} s`,
  );
  store = await storeCounts(db);
}
const fillSeconds = (performance.now() - fillStarted) / 1000;
const sourcesByProvider = Object.entries(store.sourcesByProvider)
  .map(([p, n]) => `${p} ${int(n)}`)
  .join(', ');
log(
  `store: ${int(store.openJobs)} open jobs (${int(store.allJobs)} in all), ` +
    `${int(store.sources)} sources (${sourcesByProvider})`,
);
if (store.openJobs < targetJobs)
  log(
    `the store holds fewer open jobs than BENCH_TARGET_JOBS ` +
      `(${int(targetJobs)}): a larger WORLD_SLOTS makes a larger ` +
      `market`,
  );

// ---------------------------------------------------------------- ages

interface Ages {
  provider: string;
  listed: number;
  /** listed sources of open jobs at companies without a domain: rounds read them by listing id */
  byId: number;
  maxS: number;
  p99S: number;
  /** the oldest at a company with a domain */
  maxByCompanyS: number | null;
}

/** dedupe's `verificationAges` statement, with the listings read by company apart. */
async function ages(): Promise<Map<string, Ages>> {
  const { rows } = await db.query<{
    provider: string;
    listed: number;
    by_id: number;
    max_s: number;
    p99_s: number;
    max_by_company_s: number | null;
  }>(`
    SELECT s.provider::text AS provider, count(*)::int AS listed,
      (count(*) FILTER (WHERE c.domain IS NULL))::int AS by_id,
      greatest(0, extract(epoch FROM statement_timestamp() - min(s.last_seen_at)))::float8 AS max_s,
      greatest(0, extract(epoch FROM statement_timestamp()
        - percentile_disc(0.99) WITHIN GROUP (ORDER BY s.last_seen_at DESC)))::float8 AS p99_s,
      greatest(0, extract(epoch FROM statement_timestamp()
        - min(s.last_seen_at) FILTER (WHERE c.domain IS NOT NULL)))::float8 AS max_by_company_s
    FROM job_sources s JOIN canonical_jobs j ON j.id = s.canonical_job_id JOIN companies c ON c.id = j.company_id
    WHERE s.listed AND j.status = 'open'
    GROUP BY 1 ORDER BY 1`);
  return new Map(
    rows.map((r) => [
      r.provider,
      {
        provider: r.provider,
        listed: r.listed,
        byId: r.by_id,
        maxS: r.max_s,
        p99S: r.p99_s,
        maxByCompanyS: r.max_by_company_s,
      },
    ]),
  );
}

const fmt = (s: number | null | undefined) => (s === null || s === undefined ? 'n/a' : s.toFixed(0));

// ---------------------------------------------------------------- 2. warm-up

const warmupStarted = Date.now();
for (;;) {
  const now = await ages();
  const over = [...now.values()].filter((a) => a.maxS > boundS);
  if (over.length === 0) break;
  if (Date.now() - warmupStarted > warmupMaxMs) {
    log(
      `warm-up: still over the bound after ${warmupMaxMs / 1000} s ` +
        `(${over.map((a) => `${a.provider} ${fmt(a.maxS)} s`).join(', ')}); ` +
        `measuring anyway`,
    );
    break;
  }
  log(
    `warm-up: oldest listing over the bound of ${boundS} s: ` +
      `${over.map((a) => `${a.provider} ${fmt(a.maxS)} s`).join(', ')}`,
  );
  await sleep(sampleMs);
}
const warmupSeconds = (Date.now() - warmupStarted) / 1000;

// ---------------------------------------------------------------- 3. measure

const windowMs = rounds * intervalMs;
log(
  `measuring ${rounds} rounds (${windowMs / 1000} s) at ` +
    `REFRESH_INTERVAL_MS ${intervalMs}, REFRESH_BUCKETS ` +
    `${buckets}: the bound is ${boundS} s`,
);
const loadBefore = loadavg();
const started = new Date();
const cpuBefore = snapshot(location);
const ownBefore = processCpuMs(ownBackend) ?? 0;
const samples: Array<{ at: number; ages: Map<string, Ages> }> = [];
while (Date.now() - started.getTime() < windowMs) {
  samples.push({ at: Date.now(), ages: await ages() });
  await sleep(Math.min(sampleMs, Math.max(0, windowMs - (Date.now() - started.getTime()))));
}
samples.push({ at: Date.now(), ages: await ages() });
const ended = new Date();
const ownSeconds = ((processCpuMs(ownBackend) ?? ownBefore) - ownBefore) / 1000;
const cpu = usageBetween(cpuBefore, snapshot(location));
const loadAfter = loadavg();

/**
 * Rounds that started in the window: when, how long to the merge of their last sweep (null: a sweep still out), and
 * their sweeps.
 */
const { rows: roundRows } = await db.query<{
  provider: string;
  started_at: Date;
  seconds: number | null;
  sweeps: number;
  records: number;
}>(
  `SELECT p.provider::text AS provider, p.started_at,
     CASE WHEN count(s.*) FILTER (WHERE s.finished_at IS NULL) > 0 THEN NULL
          ELSE extract(epoch FROM coalesce(max(s.finished_at), p.started_at) - p.started_at)::float8 END AS seconds,
     count(s.*)::int AS sweeps, coalesce(sum(s.records), 0)::int AS records
   FROM refresh_passes p LEFT JOIN refresh_sweeps s ON s.pass_id = p.id
   WHERE p.kind = 'round' AND p.started_at >= $1 AND p.started_at < $2
   GROUP BY p.id ORDER BY p.started_at`,
  [started, ended],
);
const { rows: verification } = await db.query<{
  provider: string;
  max_age_seconds: number | null;
  bound_seconds: number;
  current_bound_seconds: number;
  holds: boolean;
  computed_at: Date;
}>(
  'SELECT provider::text AS provider, max_age_seconds, ' +
    'bound_seconds, current_bound_seconds, holds, computed_at ' +
    'FROM store_verification ORDER BY provider',
);
await db.end();

// ---------------------------------------------------------------- 4. report

const intervalS = intervalMs / 1000;
console.log(`\n## bench:freshness, ${started.toISOString()} to ${ended.toISOString()}\n`);
console.log(
  `Store: ${int(store.openJobs)} open jobs ` +
    `(${int(store.allJobs)} in all), ${int(store.sources)} ` +
    `sources. ` +
    `${skipFill ? 'Fill skipped' : `Fill and settle: ${fillSeconds.toFixed(0)} s`}; ` +
    `warm-up ${warmupSeconds.toFixed(0)} s. Window: ${rounds} ` +
    `rounds of ${intervalS} s, ${samples.length} samples of every ` +
    `listed source's age. Bound: ${buckets} x ${intervalS} s = ` +
    `${boundS} s. Load average ` +
    `${loadBefore.map((l) => l.toFixed(1)).join('/')} before, ` +
    `${loadAfter.map((l) => l.toFixed(1)).join('/')} after ` +
    `(${cpus().length} cores).\n`,
);
console.log(
  '| provider | listed sources | of which at a company without a ' +
    'domain (read by id) | max age s | max age s, by company | p99 ' +
    'age s | bound s | rounds in window | round s p50 / max | ' +
    'rounds within the interval | sweeps per round | dedupe: max ' +
    'age s / holds |',
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---|');
for (const provider of PROVIDER_SLUGS) {
  const series = samples.map((s) => s.ages.get(provider)).filter((a): a is Ages => a !== undefined);
  const last = series.at(-1);
  const max = Math.max(0, ...series.map((a) => a.maxS));
  const byCompany = series.some((a) => a.maxByCompanyS !== null)
    ? Math.max(0, ...series.map((a) => a.maxByCompanyS ?? 0))
    : null;
  const p99 = Math.max(0, ...series.map((a) => a.p99S));
  const mine = roundRows.filter((r) => r.provider === provider);
  const durations = mine.flatMap((r) => (r.seconds === null ? [] : [r.seconds])).sort((a, b) => a - b);
  const open = mine.length - durations.length;
  const fitted = durations.filter((d) => d <= intervalS).length;
  const sweeps = mine.length > 0 ? mine.reduce((n, r) => n + r.sweeps, 0) / mine.length : 0;
  const v = verification.find((r) => r.provider === provider);
  console.log(
    `| ${provider} | ${int(last?.listed ?? 0)} | ` +
      `${int(last?.byId ?? 0)} | ${fmt(max)} | ` +
      `${fmt(byCompany)} | ${fmt(p99)} | ${boundS} | ` +
      `${mine.length}${open > 0 ? ` (${open} still running)` : ''} ` +
      `| ` +
      `${durations.length > 0 ? `${percentile(durations, 50).toFixed(1)} / ${durations.at(-1)!.toFixed(1)}` : 'n/a'} ` +
      `| ${fitted} of ${durations.length} | ${sweeps.toFixed(1)} | ` +
      `${v ? `${fmt(v.max_age_seconds)} / ${v.holds ? 'yes' : 'no'}` : 'n/a'} ` +
      `|`,
  );
}

console.log('\nOldest listing per provider (s), every minute of the window:\n');
console.log(`| minute | ${PROVIDER_SLUGS.join(' | ')} |`);
console.log(`|---:|${PROVIDER_SLUGS.map(() => '---:').join('|')}|`);
let lastMinute = -1;
for (const sample of samples) {
  const minute = Math.floor((sample.at - started.getTime()) / 60_000);
  if (minute === lastMinute) continue;
  lastMinute = minute;
  console.log(`| ${minute} | ${PROVIDER_SLUGS.map((p) => fmt(sample.ages.get(p)?.maxS)).join(' | ')} |`);
}

const COLUMNS = SEARCH_PATH_COLUMNS;
const SHORT = SHORT_COLUMN_NAMES;
const seconds = (c: string) => Math.max(0, (cpu.get(c)?.seconds ?? 0) - (c === GROUP.pgBackends ? ownSeconds : 0));
const wallS = (ended.getTime() - started.getTime()) / 1000;
const stack = COLUMNS.reduce((n, c) => n + seconds(c), 0);
console.log(
  `\nCPU over the window (${wallS.toFixed(0)} s), CPU-seconds ` +
    `and share of one core; PostgreSQL without this benchmark's ` +
    `own backend (${ownSeconds.toFixed(1)} CPU-s of age ` +
    `samples):\n`,
);
console.log(`| ${[...COLUMNS.map((c) => SHORT[c] ?? c), 'stack', 'provider-sim (the partners)'].join(' | ')} |`);
console.log(`|${[...COLUMNS, 'stack', 'sim'].map(() => '---:').join('|')}|`);
const cell = (s: number) => `${s.toFixed(1)} (${((100 * s) / wallS).toFixed(1)} %)`;
console.log(`| ${[...COLUMNS.map((c) => cell(seconds(c))), cell(stack), cell(seconds('provider-sim'))].join(' | ')} |`);
