/**
 * What a stack costs when nobody asks it anything: each process's share of one core with no
 * request sent, read from /proc (`proc-cpu.ts`), over one whole re-verification cycle by default
 * (`REFRESH_BUCKETS` x `REFRESH_INTERVAL_MS` of the stack's dedupe: 10 minutes at the defaults):
 * each round re-verifies one bucket of the store, and buckets differ in size, so a shorter window
 * measures the rounds it happens to hold.
 *
 *   npm run up                 # default REFRESH_INTERVAL_MS (60 s), the viewer on
 *   npm run bench -- idle
 *
 * The whole is split into `BENCH_IDLE_WINDOWS` (5) equal parts so a one-off (a heavy round, a
 * JIT burst) shows apart from the others; the table gives each part and the whole.
 * `BENCH_IDLE_SECONDS` sets another length.
 * The store's open jobs are counted first, in the stack's database. `BENCH_IDLE_FILL` (a comma-separated
 * list of providers, or `all`) first puts those providers' whole listings into the store (`store-fill.ts`)
 * and waits one re-verification cycle, so the measured rounds re-read a store of that size: `provider_b`
 * gives about 19,000 open jobs on a fresh `npm run up`, `all` about 30,000. Options:
 * STACK_PIDS_FILE (.local/run/dev/pids.json), PROVIDER_SIM_URL (http://127.0.0.1:8090), KAFKA_BROKERS
 * (the stack's).
 */
import { resolve } from 'node:path';
import pg from 'pg';
import {
  GROUP,
  machineBetween,
  processCpuMs,
  snapshot,
  stackOf,
  STACK_SERVICES,
  usageBetween,
  type Snapshot,
  viewerPidOf,
} from './proc-cpu.js';
import { ownerDatabaseUrl } from './stack.js';
import { PROVIDER_SLUGS, ProviderSlugSchema, type ProviderSlug } from '@jobs/contracts';
import { fillStore, storeCounts } from './store-fill.js';

const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const { env, location } = stackOf(pidsFile, 'gateway');
const dedupeEnv = stackOf(pidsFile, 'dedupe').env;
const refreshIntervalMs = Number(dedupeEnv['REFRESH_INTERVAL_MS'] ?? 60_000);
const buckets = Number(dedupeEnv['REFRESH_BUCKETS'] ?? 10);
const cycleSeconds = (buckets * refreshIntervalMs) / 1000;
/** A round re-reads one of `REFRESH_BUCKETS - 1` buckets (docs/store.md): each job once in this long. */
const rereadSeconds = ((buckets - 1) * refreshIntervalMs) / 1000;
const seconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? cycleSeconds);
const windows = Math.max(1, Number(process.env['BENCH_IDLE_WINDOWS'] ?? 5));

const log = (message: string) =>
  process.stderr.write(`[bench:idle ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const VIEWER = 'trace viewer (java)';
const viewer = viewerPidOf(pidsFile);

interface Reading {
  stack: Snapshot;
  viewerMs: number;
}
const read = (): Reading => ({
  stack: snapshot(location),
  viewerMs: viewer === undefined ? 0 : (processCpuMs(viewer) ?? 0),
});

/** Share of one core per column between two readings, in percent. */
function shares(a: Reading, b: Reading): Map<string, number> {
  const wall = (b.stack.at - a.stack.at) / 1000;
  const usage = usageBetween(a.stack, b.stack);
  const out = new Map<string, number>();
  const pct = (cpuSeconds: number) => (100 * cpuSeconds) / wall;
  for (const name of [...STACK_SERVICES, 'provider-sim']) out.set(name, pct(usage.get(name)?.seconds ?? 0));
  out.set(GROUP.kafka, pct(usage.get(GROUP.kafka)?.seconds ?? 0));
  out.set(GROUP.kafkaJit, pct(usage.get(GROUP.kafkaJit)?.seconds ?? 0));
  if (viewer !== undefined) out.set(VIEWER, pct((b.viewerMs - a.viewerMs) / 1000));
  out.set(GROUP.pgBackends, pct(usage.get(GROUP.pgBackends)?.seconds ?? 0));
  out.set(GROUP.pgWorkers, pct(usage.get(GROUP.pgWorkers)?.seconds ?? 0));
  out.set(GROUP.pgServer, pct(usage.get(GROUP.pgServer)?.seconds ?? 0));
  out.set(GROUP.redis, pct(usage.get(GROUP.redis)?.seconds ?? 0));
  const stack = [
    ...STACK_SERVICES,
    GROUP.kafka,
    GROUP.pgBackends,
    GROUP.pgWorkers,
    ...(viewer !== undefined ? [VIEWER] : []),
  ]
    .map((name) => out.get(name)!)
    .reduce((x, y) => x + y, 0);
  out.set('stack', stack);
  const machine = machineBetween(a.stack, b.stack);
  out.set('machine (all processes)', pct(machine.busySeconds));
  return out;
}

/** The stack's database (DATABASE_URL of its gateway), as its owner, for the length of `use`. */
async function withStore<T>(use: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: ownerDatabaseUrl(env['DATABASE_URL']) });
  await db.connect();
  try {
    return await use(db);
  } finally {
    await db.end();
  }
}

const fillProviders = (): ProviderSlug[] | undefined => {
  const list = process.env['BENCH_IDLE_FILL'];
  if (!list) return undefined;
  return list === 'all' ? [...PROVIDER_SLUGS] : list.split(',').map((p) => ProviderSlugSchema.parse(p.trim()));
};

/** Puts these providers' whole listings into the store, then lets one cycle of rounds pass over it. */
async function fill(providers: ProviderSlug[]): Promise<void> {
  await withStore((db) =>
    fillStore({
      simUrl: process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090',
      brokers: (process.env['KAFKA_BROKERS'] ?? dedupeEnv['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','),
      db,
      dedupeMetricsUrl: `http://127.0.0.1:${dedupeEnv['HEALTH_PORT'] ?? 9103}/metrics`,
      settleMs: 10_000,
      timeoutMs: 1_800_000,
      log,
      topic: 'passes',
      providers,
    }),
  );
  log(`filled; letting one re-verification cycle (${cycleSeconds} s) pass before measuring`);
  await sleep(cycleSeconds * 1000);
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
const fmt = (v: number) => (v >= 10 ? v.toFixed(1) : v.toFixed(2));

/**
 * Every open job is re-read once every `REFRESH_BUCKETS - 1` rounds, so the store's open jobs over
 * that time are the jobs re-verified a second; the CPU of the processes that do it (fetcher, dedupe, their PostgreSQL
 * backends, Kafka) per job re-verified is an upper bound: their idle floor is counted too.
 */
function reverification(whole: Map<string, number>, open: number): string {
  const perSecond = open / rereadSeconds;
  const busyPercent = ['provider-fetcher', 'dedupe', GROUP.pgBackends, GROUP.pgWorkers, GROUP.kafka]
    .map((name) => whole.get(name) ?? 0)
    .reduce((a, b) => a + b, 0);
  // 1 % of a core is 10 CPU-ms a second
  const cpuMsPerJob = perSecond > 0 ? ((busyPercent * 10) / perSecond).toFixed(2) : '-';
  return (
    `Re-verification: ${open.toLocaleString('en-US')} open jobs, each re-read every ${rereadSeconds} s = ` +
    `${perSecond.toFixed(1)} jobs re-verified a second; fetcher + dedupe + PostgreSQL backends and workers + Kafka ` +
    `${fmt(busyPercent)} % of a core: at most ${cpuMsPerJob} ` +
    'CPU-ms per job re-verified (their idle floor included).'
  );
}

async function main(): Promise<void> {
  const providers = fillProviders();
  if (providers) await fill(providers);
  const openCount = await withStore(async (db) => (await storeCounts(db)).openJobs);
  const jobs = openCount.toLocaleString('en-US');
  log(
    `idle for ${seconds} s in ${windows} windows (a re-verification cycle: ${cycleSeconds} s); ` +
      `REFRESH_INTERVAL_MS ${refreshIntervalMs}; ` +
      `trace viewer ${viewer === undefined ? 'off' : 'on'}; open jobs ${jobs}`,
  );
  const readings = [read()];
  for (let w = 0; w < windows; w += 1) {
    await sleep((seconds * 1000) / windows);
    readings.push(read());
    log(`window ${w + 1}/${windows}: stack ${fmt(shares(readings[w]!, readings[w + 1]!).get('stack')!)} % of a core`);
  }
  const parts = readings.slice(1).map((r, i) => shares(readings[i]!, r));
  // The mean of the windows (equal lengths), not one reading from first to last: a pooled
  // connection's backend that ends within the run takes its CPU with it from the later reading.
  const whole = new Map([...parts[0]!.keys()].map((name) => [name, mean(parts.map((p) => p.get(name)!))]));
  const heads = [...parts.map((_, i) => `window ${i + 1}`), `whole ${seconds} s`];
  const out = [
    `\nIdle stack, ${new Date().toISOString().slice(0, 16)} UTC: % of one core per process, nothing asked ` +
      `(open jobs ${jobs}; REFRESH_INTERVAL_MS ${refreshIntervalMs}; the viewer ${viewer === undefined ? 'off' : 'on'})\n`,
    `| process | ${heads.join(' | ')} |`,
    `|---|${heads.map(() => '---:').join('|')}|`,
    ...[...whole.keys()].map((name) => {
      const bold = name === 'stack' ? (v: string) => `**${v}**` : (v: string) => v;
      return `| ${name} | ${[...parts, whole].map((p) => bold(fmt(p.get(name)!))).join(' | ')} |`;
    }),
    '',
    "stack = the six services, the Kafka broker, the stack database's PostgreSQL backends, the PostgreSQL " +
      'workers that ended (parallel query, autovacuum) and the viewer; ' +
      'the simulated partners, the shared PostgreSQL server processes and Redis are listed apart. ' +
      'The JIT line is part of Kafka.',
    '',
    reverification(whole, openCount),
  ];
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
