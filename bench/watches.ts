/**
 * Company watches at scale: what N live company watches cost a running stack between customer
 * requests, and how fast a new opening at a watched company reaches its webhook.
 *
 * 0. Fills the store with the whole simulated market first (bench/store-fill.ts: every
 *    provider's full listing through dedupe's normal merge), as a customer's stack holds it, so
 *    the passes re-verify a full store (BENCH_FILL=0 skips it, e.g. on a stack filled already).
 * 1. Creates N company watches (POST /v1/watches, no filters, every event type) spread over
 *    BENCH_ACCOUNTS Pro accounts (admin API), on N distinct companies of the simulated market
 *    that have openings (drawn with BENCH_SEED from the domains of the simulator's own_index
 *    listing), each
 *    account's `webhook_url` on a local receiver of its own (`Receiver` of @jobs/e2e-support,
 *    which records the arrival time of every delivery; nothing else is checked).
 * 2. Warm-up: the first refresh passes open every job of the watched companies (a flood of
 *    `job.opened`); it ends once an interval brings few new events (at least two intervals).
 *    Then the stack runs at its own refresh interval (REFRESH_INTERVAL_MS, read from the
 *    orchestrator's environment) for BENCH_INTERVALS intervals, while the CPU time of every
 *    process of the stack (pids file, Kafka broker, PostgreSQL backends of its database) and of
 *    the shared PostgreSQL server, Redis and the machine is sampled every 5 s (bench/proc-cpu.ts),
 *    and the consumer lag along the refresh chain (fetch -> dedupe -> matcher -> billing ->
 *    dispatcher) is read at the end of each phase (bench/kafka-lag.ts).
 * 3. Sync search (POST /v1/jobs/search, default strategy, limit 20, one at a time) before the
 *    watches exist, once the watched stack is quiet, and right after POST /admin/refresh.
 * 4. BENCH_ROUNDS rounds: a new opening (unique title, a rotating provider mix) at each of S
 *    sampled watched companies, then POST /admin/refresh; the time from that call to the arrival
 *    of the opening's `job.opened` at the watching account's receiver, up to 60 s (else missed).
 * 5. Deletes the watches (DELETE /v1/watches/{id}) unless --keep-watches, and prints a Markdown
 *    summary and a per-process CPU table.
 *
 *   npm run up                                   # in another shell (or any running stack)
 *   npm run bench -- watches                        # N = 1000 watches, S = 20 sampled companies
 *   npm run bench -- watches --watches 300 --sample 10 --rounds 2 --intervals 2 --keep-watches
 *
 * Options (flag or env): --watches BENCH_WATCHES (1000), --accounts BENCH_ACCOUNTS (10),
 * --sample BENCH_SAMPLE (20), --rounds BENCH_ROUNDS (3), --intervals BENCH_INTERVALS (3),
 * --searches BENCH_SEARCHES (10 per column), --search-trials BENCH_SEARCH_TRIALS (3: quiet and
 * right-after-refresh columns, each trial after the stack is quiet again), --keep-watches BENCH_KEEP_WATCHES=1;
 * BENCH_CONCURRENCY (8 watch creations/deletions in flight), BENCH_EVENT_TIMEOUT_MS (60,000),
 * BENCH_WARMUP_MAX_MS (900,000), BENCH_SEED (1: which companies are watched and sampled),
 * BENCH_TIMELINE_FILE (writes every 5 s CPU sample as JSON lines), BENCH_FILL (1), STACK_PIDS_FILE
 * (`.local/run/dev/pids.json` of the current directory), PROVIDER_SIM_URL, BASE_URL, ADMIN_URL,
 * ADMIN_TOKEN (the dev stack of `npm run up`).
 */
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Topics, type Watch } from '@jobs/contracts';
import { addWorldJob, admin, api, Receiver, type ProviderSlug } from '@jobs/e2e-support';
import { FILTER_SETS } from './filter-sets.js';
import { openLagProbe } from './kafka-lag.js';
import {
  GROUP,
  machineBetween,
  processEnv,
  servicePids,
  snapshot,
  stackLocation,
  usageBetween,
  type GroupUsage,
  type Snapshot,
} from './proc-cpu.js';
import { createBenchAccount, ownerDatabaseUrl, percentile } from './stack.js';
import { fillStore, storeCounts } from './store-fill.js';
import {
  byType,
  CpuTimeline,
  createWatch,
  EventLog,
  forEachConcurrently,
  gitCommit,
  joinColumns,
  marketDomains,
  PROVIDER_MIXES,
  refreshLag,
  sampleIndexes,
  type BenchAccount,
  type LatencySample as Sample,
  type Phase,
  type SearchColumn,
} from './watches-support.js';
import pg from 'pg';

// ---------------------------------------------------------------- options

const { values: flags } = parseArgs({
  options: {
    watches: { type: 'string' },
    accounts: { type: 'string' },
    sample: { type: 'string' },
    rounds: { type: 'string' },
    intervals: { type: 'string' },
    searches: { type: 'string' },
    'search-trials': { type: 'string' },
    'keep-watches': { type: 'boolean' },
  },
});

function positive(flag: string | undefined, envName: string, fallback: number): number {
  const value = Number(flag ?? process.env[envName] ?? fallback);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${envName} (or its flag) must be a positive integer, got ${flag ?? process.env[envName]}`);
  return value;
}

const watchCount = positive(flags.watches, 'BENCH_WATCHES', 1000);
const accountCount = positive(flags.accounts, 'BENCH_ACCOUNTS', 10);
const sampleCount = Math.min(watchCount, positive(flags.sample, 'BENCH_SAMPLE', 20));
const rounds = positive(flags.rounds, 'BENCH_ROUNDS', 3);
const intervals = positive(flags.intervals, 'BENCH_INTERVALS', 3);
const searchesPerColumn = positive(flags.searches, 'BENCH_SEARCHES', 10);
const searchTrials = positive(flags['search-trials'], 'BENCH_SEARCH_TRIALS', 3);
const keepWatches = flags['keep-watches'] ?? process.env['BENCH_KEEP_WATCHES'] === '1';
const concurrency = positive(undefined, 'BENCH_CONCURRENCY', 8);
const eventTimeoutMs = positive(undefined, 'BENCH_EVENT_TIMEOUT_MS', 60_000);
const warmupMaxMs = positive(undefined, 'BENCH_WARMUP_MAX_MS', 900_000);
const seed = positive(undefined, 'BENCH_SEED', 1);
const timelineFile = process.env['BENCH_TIMELINE_FILE'];
const simUrl = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');

const SAMPLE_EVERY_MS = 5000;
const QUIET_CORES = 0.25;

const startedAt = Date.now();
const say = (message: string) =>
  process.stderr.write(`[bench:watches ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the stack's processes

const services = servicePids(pidsFile);
const orchestratorPid = services['search-orchestrator'];
if (orchestratorPid === undefined) throw new Error(`no search-orchestrator in ${pidsFile}`);
const orchestratorEnv = processEnv(orchestratorPid);
const intervalMs = Number(orchestratorEnv['REFRESH_INTERVAL_MS'] ?? process.env['REFRESH_INTERVAL_MS'] ?? 60_000);
const location = stackLocation(pidsFile, orchestratorEnv['DATABASE_URL'], orchestratorEnv['REDIS_URL']);
const lagProbe = await openLagProbe(
  (orchestratorEnv['KAFKA_BROKERS'] ?? process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(','),
);
const lags: Array<[string, string]> = [];
const noteLag = async (when: string) => lags.push([when, await refreshLag(lagProbe)]);
const SIMULATOR = 'provider-sim';
/** The stack proper: its services (not the simulated partners), its broker, its database's backends. */
const STACK_GROUPS = [...Object.keys(services).filter((name) => name !== SIMULATOR), GROUP.kafka, GROUP.pgBackends];
const stackSeconds = (usage: Map<string, GroupUsage>) =>
  STACK_GROUPS.reduce((sum, label) => sum + (usage.get(label)?.seconds ?? 0), 0);

const timeline = new CpuTimeline(location, timelineFile);
const sampleNow = () => timeline.sample();
const loads: Array<[string, number[]]> = [];
const noteLoad = (when: string) => loads.push([when, loadavg()]);
const phase = (name: string, from: Snapshot, to: Snapshot): Phase => ({ name, from, to });

// ---------------------------------------------------------------- the simulated market

// ---------------------------------------------------------------- accounts, receivers, events

// ---------------------------------------------------------------- sync search

async function searchColumn(key: string): Promise<SearchColumn> {
  const before = sampleNow();
  const latencies: number[] = [];
  let errors = 0;
  for (let i = 0; i < searchesPerColumn; i++) {
    const t = performance.now();
    const res = await api('/v1/jobs/search', {
      key,
      body: { filters: FILTER_SETS[i % FILTER_SETS.length]!, limit: 20 },
    });
    latencies.push(performance.now() - t);
    if (res.status !== 200) errors++;
  }
  const after = sampleNow();
  return {
    latencies: latencies.sort((a, b) => a - b),
    errors,
    stackCores: stackSeconds(usageBetween(before, after)) / ((after.at - before.at) / 1000),
  };
}

/** Waits (up to `maxMs`) for 3 s in which the stack uses less than QUIET_CORES; false if it never did. */
async function waitForQuiet(maxMs: number): Promise<boolean> {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const a = snapshot(location);
    await sleep(3000);
    const b = snapshot(location);
    if (stackSeconds(usageBetween(a, b)) / ((b.at - a.at) / 1000) < QUIET_CORES) return true;
  }
  return false;
}

// ---------------------------------------------------------------- the run

/** What the store held when the watches were made. */
let storeSize = 'as found (BENCH_FILL=0)';

say(
  `stack: ${pidsFile} (${Object.keys(services).length} ` +
    `services, database ${location.database ?? '?'} on port ` +
    `${location.postgresPort}, Redis on port ` +
    `${location.redisPort}), refresh interval ` +
    `${intervalMs / 1000} s`,
);
noteLoad('start');
if (process.env['BENCH_FILL'] !== '0') {
  const db = new pg.Client({ connectionString: ownerDatabaseUrl(orchestratorEnv['DATABASE_URL']) });
  await db.connect();
  const dedupeEnv = services['dedupe'] === undefined ? {} : processEnv(services['dedupe']);
  const dedupeMetricsUrl =
    process.env['DEDUPE_METRICS_URL'] ?? `http://127.0.0.1:${dedupeEnv['HEALTH_PORT'] ?? 9103}/metrics`;
  const brokers = (orchestratorEnv['KAFKA_BROKERS'] ?? process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
  const fill = await fillStore({
    simUrl,
    brokers,
    db,
    dedupeMetricsUrl,
    settleMs: 10_000,
    timeoutMs: 1_800_000,
    log: say,
  });
  const counts = await storeCounts(db);
  say(
    `store filled (${fill.refreshId}, caught up after ` +
      `${fill.caughtUpSeconds.toFixed(0)} s): ` +
      `${counts.openJobs.toLocaleString('en')} open canonical jobs, ` +
      `${counts.sources.toLocaleString('en')} sources`,
  );
  storeSize =
    `${counts.openJobs.toLocaleString('en')} open canonical jobs, ` +
    `${counts.sources.toLocaleString('en')} sources (filled with ` +
    `the whole market before the watches)`;
  await db.end();
}
const market = await marketDomains(simUrl);
if (market.size < watchCount)
  throw new Error(`the simulated market shows ${market.size} company domains, fewer than ${watchCount} watches`);
const marketListings = [...market.values()].reduce((a, b) => a + b, 0);
const allDomains = [...market.keys()].sort();
const domains = sampleIndexes(allDomains.length, watchCount, seed).map((i) => allDomains[i]!);
const watchedListings = domains.reduce((sum, domain) => sum + market.get(domain)!, 0);
say(
  `${domains.length} of the market's ${market.size} company ` +
    `domains, drawn with seed ${seed}: ${watchedListings} of the ` +
    `own crawler's ${marketListings} listings`,
);

const accounts: BenchAccount[] = [];
for (let i = 0; i < accountCount; i++) {
  const { accountId, liveKey } = await createBenchAccount({
    plan: 'pro',
    credits: 1_000_000,
    rate_limit: { limit: 1_000_000, window_seconds: 60 },
  });
  const receiver = new Receiver();
  await receiver.start();
  accounts.push({ accountId, liveKey, receiver, webhookUrl: receiver.endpoint() });
}
const events = new EventLog(accounts.map((a) => a.receiver));
const searchKey = accounts[0]!.liveKey;

say(`sync search before any watch (${searchesPerColumn} searches) ...`);
const beforeWatches = await searchColumn(searchKey);

say(`creating ${watchCount} company watches over ${accountCount} Pro accounts (${concurrency} at a time) ...`);
const watches: Array<{ watch: Watch; account: BenchAccount }> = new Array(watchCount);
let creationErrors = 0;
let firstCreationError: string | undefined;
const creationStarted = Date.now();
await forEachConcurrently(domains, concurrency, async (domain, i) => {
  const account = accounts[i % accountCount]!;
  try {
    watches[i] = { watch: await createWatch(account, domain), account };
  } catch (error) {
    creationErrors++;
    firstCreationError ??= (error as Error).message;
  }
  if ((i + 1) % 200 === 0) say(`  ${i + 1} watches asked for`);
});
const creationMs = Date.now() - creationStarted;
const created = watches.filter(Boolean);
say(
  `${created.length} watches created in ` +
    `${(creationMs / 1000).toFixed(1)} ` +
    `s${creationErrors ? `, ${creationErrors} failed: ${firstCreationError}` : ''}`,
);

const sampler = setInterval(sampleNow, SAMPLE_EVERY_MS);
const warmupStart = sampleNow();

// Warm-up: at least two intervals, then until one interval brings few new events and dedupe has
// at most one pass of refresh listings (a listing per watched company and Pro provider) to merge.
const onePass = created.length * 7;
say(
  `warm-up: at least ${(2 * intervalMs) / 1000} s, until an ` +
    `interval brings under 2% of the events so far and dedupe's ` +
    `refresh lag is under ${onePass.toLocaleString('en')} (at ` +
    `most ${warmupMaxMs / 1000} s) ...`,
);
let settled = false;
for (;;) {
  await sleep(SAMPLE_EVERY_MS);
  const now = Date.now();
  const total = events.between(warmupStart.at, now).length;
  const lastInterval = events.between(now - intervalMs, now).length;
  const quietEvents = total > 0 && lastInterval <= Math.max(20, 0.02 * total);
  if (
    now - warmupStart.at >= 2 * intervalMs &&
    quietEvents &&
    (await lagProbe.lag('dedupe.refresh', Topics.RefreshRecordsFetched.name)) <= onePass
  ) {
    settled = true;
    break;
  }
  if (now - warmupStart.at >= warmupMaxMs) break;
  if (Math.round((now - warmupStart.at) / SAMPLE_EVERY_MS) % 6 === 0)
    say(
      `  ${total.toLocaleString('en')} deliveries so far, ` +
        `${lastInterval.toLocaleString('en')} in the last interval; ` +
        `lag: ${await refreshLag(lagProbe)}`,
    );
}
const warmupEnd = sampleNow();
const warmup = phase('warm-up', warmupStart, warmupEnd);
noteLoad('after warm-up');
await noteLag('after warm-up');

say(`steady state: ${intervals} refresh intervals (${(intervals * intervalMs) / 1000} s) ...`);
await sleep(intervals * intervalMs);
const steadyEnd = sampleNow();
const steady = phase('steady', warmupEnd, steadyEnd);
noteLoad('end of steady window');
await noteLag('end of steady window');

say('sync search once the watched stack is quiet, then right after POST /admin/refresh ...');
// Several trials: where one pass's work falls among ten searches of ~50 ms is luck; each trial
// waits for the stack to be quiet again (the last call's pass and round done) before its quiet column.
const quietColumns: SearchColumn[] = [];
const duringColumns: SearchColumn[] = [];
let quietFound = true;
for (let trial = 0; trial < searchTrials; trial++) {
  quietFound = (await waitForQuiet(2 * intervalMs)) && quietFound;
  quietColumns.push(await searchColumn(searchKey));
  await admin('POST', '/refresh', undefined, 202);
  duringColumns.push(await searchColumn(searchKey));
}
const quiet = joinColumns(quietColumns);
const duringRefresh = joinColumns(duringColumns);

// Latency rounds: a new opening at each sampled company, then one refresh call.
const sampled = sampleIndexes(created.length, sampleCount, seed + 1).map((i) => created[i]!);
const latencySamples: Sample[] = [];
/** Openings whose job.opened has not arrived yet, any round: keyword -> sample. */
const awaited = new Map<string, Sample>();
let scanned = 0;
function matchArrivals(): void {
  events.sync();
  for (const a of events.arrived.slice(scanned)) {
    const sample = a.type === 'job.opened' && a.keyword ? awaited.get(a.keyword) : undefined;
    if (sample && a.watchId === sample.watchId) {
      sample.arrivedMs = a.at - sample.refreshAt;
      awaited.delete(a.keyword!);
    }
  }
  scanned = events.arrived.length;
}
const inTime = (s: Sample) => s.arrivedMs !== undefined && s.arrivedMs <= eventTimeoutMs;
for (let round = 1; round <= rounds; round++) {
  say(
    `round ${round}/${rounds}: a new opening at ${sampled.length} ` +
      `watched companies, POST /admin/refresh, up to ` +
      `${eventTimeoutMs / 1000} s for their job.opened ...`,
  );
  const jobs: Array<{ keyword: string; domain: string; watchId: string; providers: ProviderSlug[] }> = [];
  await forEachConcurrently(sampled, 4, async ({ watch }, j) => {
    const providers = PROVIDER_MIXES[((round - 1) * sampled.length + j) % PROVIDER_MIXES.length]!;
    const job = await addWorldJob({ company_domain: watch.domain!, providers });
    jobs[j] = { keyword: job.keyword, domain: watch.domain!, watchId: watch.id, providers };
  });
  const refreshAt = Date.now();
  const openings: Sample[] = jobs.map((job) => ({ round, refreshAt, ...job }));
  for (const opening of openings) awaited.set(opening.keyword, opening);
  latencySamples.push(...openings);
  await admin('POST', '/refresh', undefined, 202);
  while (openings.some((o) => o.arrivedMs === undefined) && Date.now() - refreshAt < eventTimeoutMs) {
    await sleep(200);
    matchArrivals();
  }
  say(`  ${openings.filter(inTime).length}/${openings.length} arrived within ${eventTimeoutMs / 1000} s`);
}
matchArrivals();
const roundsEnd = sampleNow();
const roundsPhase = phase('searches + rounds', steadyEnd, roundsEnd);
noteLoad('end');
await noteLag('after the rounds');
clearInterval(sampler);

let deleted = 0;
let deletionMs = 0;
if (!keepWatches) {
  say(`deleting ${created.length} watches ...`);
  const deletionStarted = Date.now();
  await forEachConcurrently(created, concurrency, async ({ watch, account }) => {
    const res = await api(`/v1/watches/${watch.id}`, { method: 'DELETE', key: account.liveKey }).catch(() => ({
      status: 0,
    }));
    if (res.status === 204) deleted++;
  });
  deletionMs = Date.now() - deletionStarted;
}
for (const account of accounts) await account.receiver.stop();
await lagProbe.close();

// ---------------------------------------------------------------- report

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const fixed = (n: number, digits = 1) => n.toFixed(digits);
const seconds = (ms: number) => `${fixed(ms / 1000)} s`;
const minutesOf = (p: Phase) => (p.to.at - p.from.at) / 60_000;
const usageOf = (p: Phase) => usageBetween(p.from, p.to);

const steadyUsage = usageOf(steady);
const steadyMinutes = minutesOf(steady);
const steadyMachine = machineBetween(steady.from, steady.to);
const steadyStack = stackSeconds(steadyUsage);
const simulatorSeconds = steadyUsage.get(SIMULATOR)?.seconds ?? 0;
const latencies = latencySamples.flatMap((s) => (inTime(s) ? [s.arrivedMs!] : [])).sort((a, b) => a - b);
const missed = latencySamples.filter((s) => !inTime(s));
const late = missed.flatMap((s) => (s.arrivedMs === undefined ? [] : [s.arrivedMs])).sort((a, b) => a - b);
const mixes = PROVIDER_MIXES.flatMap((mix) => {
  const of = latencySamples.filter((s) => s.providers === mix);
  if (of.length === 0) return [];
  const arrived = of.flatMap((s) => (inTime(s) ? [s.arrivedMs!] : [])).sort((a, b) => a - b);
  return (
    `${mix.join('+')}: ` +
    `${arrived.length ? seconds(percentile(arrived, 50)) : '-'} ` +
    `(${arrived.length}/${of.length})`
  );
});
const p50 = (c: SearchColumn) => percentile(c.latencies, 50);
const searchCell = (c: SearchColumn) =>
  `${Math.round(p50(c))} ms (p95 ` +
  `${Math.round(percentile(c.latencies, 95))}, max ` +
  `${Math.round(c.latencies[c.latencies.length - 1] ?? 0)}, ` +
  `${c.errors} errors; stack at ` +
  `${fixed(c.stackCores * 100, 0)}% of a core)`;
const load = (l: number[]) => l.map((v) => v.toFixed(2)).join(' / ');
const commit = gitCommit();
const warmupEvents = events.between(warmup.from.at, warmup.to.at);
const steadyEvents = events.between(steady.from.at, steady.to.at);

const summary = [
  row(['measure', 'value']),
  '|---|---|',
  row([
    'run',
    `${new Date(startedAt).toISOString().slice(0, 16).replace('T', ' ')} UTC, commit ${commit}, ${cpus().length} cores`,
  ]),
  row(['load average (1 / 5 / 15 min)', loads.map(([when, l]) => `${when}: ${load(l)}`).join('; ')]),
  row([
    'watches (N)',
    `${created.length.toLocaleString('en')} company watches on ` +
      `distinct companies of the simulated market ` +
      `(${domains.length} of ${market.size} drawn with seed ` +
      `${seed}; they have ` +
      `${fixed((100 * watchedListings) / marketListings, 0)}% of ` +
      `the own crawler's listings), ${accountCount} Pro accounts, ` +
      `one receiver each`,
  ]),
  row([
    'watch creation',
    `${seconds(creationMs)} ` +
      `(${fixed(created.length / (creationMs / 1000))} watches/s, ` +
      `${concurrency} in flight), ${creationErrors} failed`,
  ]),
  row(['refresh interval', `${intervalMs / 1000} s (REFRESH_INTERVAL_MS of the orchestrator)`]),
  row(['store', storeSize]),
  row([
    'warm-up',
    `${seconds(warmup.to.at - warmup.from.at)}${settled ? '' : ` (not settled within BENCH_WARMUP_MAX_MS: events still coming or dedupe more than one pass behind)`}; ` +
      `deliveries ${warmupEvents.length.toLocaleString('en')}: ` +
      `${byType(warmupEvents)}`,
  ]),
  row([
    'steady window',
    `${fixed(steadyMinutes, 2)} min (${intervals} intervals); ` +
      `deliveries ${steadyEvents.length.toLocaleString('en')} ` +
      `(${fixed(steadyEvents.length / steadyMinutes)}/min): ` +
      `${byType(steadyEvents)}`,
  ]),
  row([
    'stack CPU, steady (services + Kafka + PostgreSQL backends)',
    `${fixed(steadyStack / steadyMinutes)} CPU-s/min = ` +
      `${fixed((steadyStack / (steadyMinutes * 60)) * 100, 0)}% of ` +
      `one core`,
  ]),
  row([
    'provider-sim CPU, steady',
    `${fixed(simulatorSeconds / steadyMinutes)} CPU-s/min = ` +
      `${fixed((simulatorSeconds / (steadyMinutes * 60)) * 100, 0)}% ` +
      `of one core`,
  ]),
  row([
    'machine CPU, steady (everything)',
    `${fixed(steadyMachine.busySeconds / steadyMinutes)} ` +
      `CPU-s/min = ` +
      `${fixed((steadyMachine.busySeconds / (steadyMinutes * 60)) * 100, 0)}% ` +
      `of one core (of ${steadyMachine.cores})`,
  ]),
  row([
    'Kafka lag along the refresh chain (messages not yet consumed)',
    lags.map(([when, lag]) => `${when}: ${lag}`).join('; '),
  ]),
  row([
    'job.opened after POST /admin/refresh (S x rounds)',
    `${sampled.length} companies x ${rounds} rounds = ` +
      `${latencySamples.length}: ` +
      `${latencies.length === 0 ? 'none arrived in time' : `p50 ${seconds(percentile(latencies, 50))}, p95 ${seconds(percentile(latencies, 95))}, max ${seconds(latencies[latencies.length - 1]!)}`}; ` +
      `missed (none within ${eventTimeoutMs / 1000} s) ` +
      `${missed.length}${late.length ? ` (${late.length} of them arrived later, before the end of the rounds: after ${seconds(late[0]!)} to ${seconds(late[late.length - 1]!)})` : ''}`,
  ]),
  row(['job.opened p50 by providers listing the opening', mixes.join('; ')]),
  row([
    'sync search p50, before the watches (cold store: the first searches of a fresh stack)',
    searchCell(beforeWatches),
  ]),
  row([
    `sync search p50, watched stack quiet (${searchTrials} x ` +
      `${searchesPerColumn})${quietFound ? '' : ' (not always quiet: ran anyway)'}`,
    searchCell(quiet),
  ]),
  row([
    `sync search p50, right after POST /admin/refresh (${searchTrials} x ${searchesPerColumn})`,
    searchCell(duringRefresh),
  ]),
  row(['during refresh / quiet (p50)', `${fixed(p50(duringRefresh) / p50(quiet), 2)}x`]),
  row([
    'cleanup',
    keepWatches
      ? 'watches kept (--keep-watches)'
      : `${deleted}/${created.length} watches deleted in ${seconds(deletionMs)}`,
  ]),
];

const processPhases = [warmup, steady, roundsPhase];
const usages = processPhases.map(usageOf);
const minutes = processPhases.map(minutesOf);
const steadyPeaks = timeline.peaks(steady);
const labels = [...steadyUsage.keys()];
const processRow = (name: string, pid: string, perPhase: number[], peak: number | undefined) =>
  row([
    name,
    pid,
    ...perPhase.map((s, i) => fixed(s / minutes[i]!)),
    `${fixed((perPhase[1]! / (minutes[1]! * 60)) * 100, 0)}%`,
    peak === undefined ? '' : `${fixed(peak * 100, 0)}%`,
  ]);
const perProcess = [
  row([
    'process',
    'pid',
    'warm-up CPU-s/min',
    'steady CPU-s/min',
    'searches + rounds CPU-s/min',
    'steady % of one core',
    'steady peak (5 s)',
  ]),
  '|---|---|---:|---:|---:|---:|---:|',
  ...labels.map((label) => {
    const u = steadyUsage.get(label)!;
    const pid =
      label === GROUP.pgBackends || label === GROUP.pgServer ? `${u.pids.length} processes` : u.pids.join(', ');
    const lost = usages.some((x) => x.get(label)?.lost) ? ' *' : '';
    return processRow(
      label === SIMULATOR ? `${label} (the simulated partners)` : label,
      `${pid}${lost}`,
      usages.map((x) => x.get(label)?.seconds ?? 0),
      steadyPeaks.get(label),
    );
  }),
  processRow('**stack: services + Kafka + PostgreSQL backends**', '', usages.map(stackSeconds), undefined),
  processRow(
    '**machine: all processes**',
    '',
    processPhases.map((p) => machineBetween(p.from, p.to).busySeconds),
    undefined,
  ),
];

process.stdout.write(
  [
    '',
    `Company watches: N = ${created.length.toLocaleString('en')}, ` +
      `S = ${sampled.length} sampled companies x ${rounds} rounds, ` +
      `refresh interval ${intervalMs / 1000} s, load average ` +
      `${loads.map(([when, l]) => `${when} ${load(l)}`).join(', ')}.`,
    '',
    ...summary,
    '',
    `CPU per process (CPU-seconds per minute of wall time; ` +
      `phases: warm-up ${fixed(minutes[0]!, 1)} min, steady ` +
      `${fixed(minutes[1]!, 1)} min, searches + rounds ` +
      `${fixed(minutes[2]!, 1)} min; * a pid ended or restarted ` +
      `during a phase, its last part uncounted):`,
    '',
    ...perProcess,
    '',
  ].join('\n'),
);
if (creationErrors > 0) process.exitCode = 1;
