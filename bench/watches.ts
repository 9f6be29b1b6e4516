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
 * BENCH_TIMELINE_FILE (writes every 5 s CPU sample as JSON lines), BENCH_FILL (1), --posted-ago-days
 * BENCH_POSTED_AGO_DAYS (0: each new opening's posting date, days before it is listed, in turn, e.g. 0,1,30),
 * STACK_PIDS_FILE
 * (`.local/run/dev/pids.json` of the current directory), PROVIDER_SIM_URL, BASE_URL, ADMIN_URL,
 * ADMIN_TOKEN (the dev stack of `npm run up`).
 */
import { loadavg } from 'node:os';
import { Topics, type Watch } from '@jobs/contracts';
import { admin, api, Receiver } from '@jobs/e2e-support';
import pg from 'pg';
import { openLagProbe } from './kafka-lag.js';
import { processEnv, type Snapshot } from './proc-cpu.js';
import { createBenchAccount, ownerDatabaseUrl } from './stack.js';
import { fillStore, storeCounts } from './store-fill.js';
import { watchesOptions } from './watches-options.js';
import { watchesReport } from './watches-report.js';
import { latencyRounds } from './watches-rounds.js';
import { joinColumns, WatchedStack, type Phase, type SearchColumn } from './watches-stack.js';
import {
  createWatch,
  EventLog,
  forEachConcurrently,
  marketDomains,
  storeDomains,
  refreshLag,
  sampleIndexes,
  type BenchAccount,
} from './watches-support.js';

const options = watchesOptions();
const { watchCount, accountCount, sampleCount, rounds, intervals, searchesPerColumn, searchTrials } = options;
const { keepWatches, concurrency, eventTimeoutMs, warmupMaxMs, seed, simUrl, pidsFile } = options;

const SAMPLE_EVERY_MS = 5000;

const startedAt = Date.now();
const say = (message: string) =>
  process.stderr.write(`[bench:watches ${((Date.now() - startedAt) / 1000).toFixed(0).padStart(4)}s] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- the stack's processes

const stack = new WatchedStack(pidsFile, options.timelineFile);
const { services, orchestratorEnv, intervalMs, location } = stack;
const lagProbe = await openLagProbe(stack.brokers);
const lags: Array<[string, string]> = [];
const noteLag = async (when: string) => lags.push([when, await refreshLag(lagProbe)]);
const sampleNow = () => stack.sample();
const loads: Array<[string, number[]]> = [];
const noteLoad = (when: string) => loads.push([when, loadavg()]);
const phase = (name: string, from: Snapshot, to: Snapshot): Phase => ({ name, from, to });
const searchColumn = (key: string) => stack.searchColumn(key, searchesPerColumn);

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
  const fill = await fillStore({
    simUrl,
    brokers: stack.brokers,
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
if (market.size < watchCount) {
  // A market of many companies lists some only at partners: the store names them all.
  const db = new pg.Client({ connectionString: ownerDatabaseUrl(orchestratorEnv['DATABASE_URL']) });
  await db.connect();
  const stored = await storeDomains(db);
  await db.end();
  for (const domain of stored) if (!market.has(domain)) market.set(domain, 0);
  say(`the own crawler names fewer companies than ${watchCount} watches: ${stored.length} from the store's open jobs`);
}
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
  // a store filled before the watches opens nothing for them: no flood is quiet too (after two intervals)
  const quietEvents = lastInterval <= Math.max(20, 0.02 * total);
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
  quietFound = (await stack.waitForQuiet(2 * intervalMs)) && quietFound;
  quietColumns.push(await searchColumn(searchKey));
  await admin('POST', '/refresh', undefined, 202);
  duringColumns.push(await searchColumn(searchKey));
}
const quiet = joinColumns(quietColumns);
const duringRefresh = joinColumns(duringColumns);

// Latency rounds: a new opening at each sampled company, then one refresh call.
const sampled = sampleIndexes(created.length, sampleCount, seed + 1).map((i) => created[i]!);
const latencySamples = await latencyRounds({
  sampled,
  rounds,
  eventTimeoutMs,
  events,
  log: say,
  postedAgoDays: options.postedAgoDays,
});
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

process.stdout.write(
  watchesReport({
    options,
    stack,
    startedAt,
    marketCompanies: market.size,
    domainsDrawn: domains.length,
    marketListings,
    watchedListings,
    watchesCreated: created.length,
    creationMs,
    creationErrors,
    storeSize,
    warmup,
    settled,
    steady,
    roundsPhase,
    events,
    loads,
    lags,
    sampledCompanies: sampled.length,
    latencySamples,
    beforeWatches,
    quiet,
    duringRefresh,
    quietFound,
    deleted,
    deletionMs,
  }),
);
if (creationErrors > 0) process.exitCode = 1;
