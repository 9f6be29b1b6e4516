/**
 * Sync search benchmark: the same searches over the full stack (gateway -> Kafka -> orchestrator
 * -> provider-fetcher -> dedupe -> billing -> gateway, PostgreSQL and Redis included) and in one
 * process with the same domain code, at concurrency 1, 16 and 64, a fixed number of requests per
 * level, cycling through varied realistic filter sets. The ratio of the two columns is the cost of
 * the service split.
 *
 * The in-process column: for each filter set, every provider of the Pro plan is asked once, up
 * front, through `@jobs/provider-adapters` against the simulator (HTTP not timed); each timed
 * search then plans the waterfall (`@jobs/waterfall`), merges those records into a fresh
 * `CanonicalIndex` (`@jobs/matching`), builds the canonical jobs, filters them with
 * `@jobs/job-filters` and assembles the page (`assembleSearchPage`). It leaves out provider HTTP
 * calls, the own index's PostgreSQL store, billing (credits, ledger, cursor signing), API keys,
 * validation, rate limits and every Kafka hop: everything the stack adds beyond that pure work.
 * Beside it, for `max_coverage`, the partner calls alone (every partner of the plan asked at once
 * through the same adapters, timed): part of what the stack must do and the in-process column
 * leaves out.
 *
 * CPU per search: around each stack level, the CPU time of every process of the stack is read
 * from /proc (its services from the pids file, its Kafka broker, the PostgreSQL backends of its
 * database; `bench/proc-cpu.ts`), and divided by the answered searches; the trace viewer's beside
 * it, apart. A search the gateway's
 * admission refuses (503 with Retry-After) is counted apart and sent again after its Retry-After,
 * as a well-behaved client does, so every level answers all its searches and a latency is that of
 * the answered attempt; searches/s then include those waits. The in-process column's CPU is
 * this process's own (`process.cpuUsage`). Run on a quiet machine: whatever else the stack does
 * meanwhile (a refresh pass) counts too.
 *
 *   npm run up                     # in another shell (or any running stack)
 *   npm run bench -- sync             # BASE_URL/ADMIN_URL/ADMIN_TOKEN/PROVIDER_SIM_URL default to the dev stack
 *   BENCH_REQUESTS=256 BENCH_LIMIT=20 npm run bench -- sync
 *
 * Before measuring, rounds of `max_coverage` searches at concurrency 16 warm the stack up until
 * the Kafka broker's JIT compilers go quiet (BENCH_WARMUP_ROUNDS, 6, at most); the CPU table shows
 * what the compilers still took beside the broker's share.
 */
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Job, JobSearchRequest, NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';
import { JobSearchRequestSchema, PARTNER_PROVIDER_SLUGS } from '@jobs/contracts';
import { CanonicalIndex } from '@jobs/matching';
import { providersForPlan } from '@jobs/plans';
import { createProviderAdapters } from '@jobs/provider-adapters';
import { assembleSearchPage, planWaterfall, type ProviderBatch } from '@jobs/waterfall';
import { FILTER_SETS } from './filter-sets.js';
import { kafkaTraffic, requestsPer, trafficPer, type Traffic } from './kafka-traffic.js';
import {
  GROUP,
  processCpuMs,
  SEARCH_PATH_COLUMNS,
  SHORT_COLUMN_NAMES,
  snapshot,
  stackOf,
  usageBetween,
  viewerPidOf,
} from './proc-cpu.js';
import { baseUrl, createBenchAccount, ownerDatabaseUrl, percentile, vacuumIfAutovacuumIsOff } from './stack.js';

const simUrl = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const requestsPerLevel = Number(process.env['BENCH_REQUESTS'] ?? 96);
const limit = Number(process.env['BENCH_LIMIT'] ?? 20);
const levels = (process.env['BENCH_CONCURRENCY'] ?? '1,16,64').split(',').map(Number);
/** `max_coverage` asks every provider of the plan at once; `default` sends no strategy (cheapest first). */
const strategies = (process.env['BENCH_STRATEGIES'] ?? 'max_coverage,default').split(',');
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const { env: dedupeEnv, location } = stackOf(pidsFile, 'dedupe');
/** The stack's processes in the CPU table (the simulated partners apart: they stand for the outside world). */
const CPU_COLUMNS = SEARCH_PATH_COLUMNS;
/**
 * The trace viewer (`npm run up` starts it: every request's trace recorded), apart from the stack:
 * it stands for wherever traces are sent, but it shares the machine's cores with the stack.
 */
const VIEWER = 'viewer';
const viewerPid = viewerPidOf(pidsFile);
const viewerMs = () => (viewerPid === undefined ? 0 : (processCpuMs(viewerPid) ?? 0));
const SHORT = SHORT_COLUMN_NAMES;

const bodyOf = (i: number, strategy: string) => ({
  filters: FILTER_SETS[i % FILTER_SETS.length]!,
  ...(strategy === 'default' ? {} : { waterfall: { strategy } }),
  limit,
});

interface LevelResult {
  /** Latencies of the answered searches only (a refusal's few milliseconds would flatter p50). */
  latencies: number[];
  seconds: number;
  /** Searches that ended in anything but 200 (a refusal is sent again, so it is not one). */
  errors: number;
  /** The gateway's admission refusals (503 with Retry-After), each followed by the same search again. */
  refused: number;
  /** CPU-ms per search by process (stack) or of this process (in-process). */
  cpuMs: Map<string, number>;
  /** Kafka messages and bytes per answered search, by topic (stack only). */
  traffic: Array<[string, number, number]>;
  /** Requests the services' Kafka clients sent per answered search, by API (stack only). */
  requests: Array<[string, number]>;
}

/** `requests` calls of `one(i)`, `concurrency` at a time, each worker taking the next index. */
/** One search: the latency of its answered attempt (ms), or undefined when it failed. */
type OneSearch = (i: number) => Promise<number | undefined>;

async function runLevel(concurrency: number, one: OneSearch, measure: 'stack' | 'self'): Promise<LevelResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const refusedBefore = refusals;
  // scraped outside the CPU window: rendering /metrics is not a search's work
  const trafficBefore: Traffic | undefined = measure === 'stack' ? await kafkaTraffic(pidsFile) : undefined;
  const before = measure === 'stack' ? snapshot(location) : undefined;
  const viewerBefore = viewerMs();
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < requestsPerLevel; i = next++) {
        const latency = await one(i).catch(() => undefined);
        if (latency !== undefined) latencies.push(latency);
        else errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuMs = new Map<string, number>();
  // per answered search: a refusal costs the stack next to nothing and did no search
  const answered = Math.max(1, requestsPerLevel - errors);
  if (before) {
    const usage = usageBetween(before, snapshot(location));
    for (const column of [...CPU_COLUMNS, GROUP.kafkaJit])
      cpuMs.set(column, ((usage.get(column)?.seconds ?? 0) * 1000) / answered);
    cpuMs.set(VIEWER, (viewerMs() - viewerBefore) / answered);
  } else {
    const self = process.cpuUsage(selfBefore);
    cpuMs.set('self', (self.user + self.system) / 1000 / requestsPerLevel);
  }
  const trafficAfter = trafficBefore ? await kafkaTraffic(pidsFile) : undefined;
  const traffic = trafficBefore && trafficAfter ? trafficPer(trafficBefore, trafficAfter, answered) : [];
  const requests = trafficBefore && trafficAfter ? requestsPer(trafficBefore, trafficAfter, answered) : [];
  return {
    latencies: latencies.sort((a, b) => a - b),
    seconds,
    errors,
    refused: refusals - refusedBefore,
    cpuMs,
    traffic,
    requests,
  };
}

// ---- full stack ----
const { liveKey: key } = await createBenchAccount({
  plan: 'pro',
  credits: 1_000_000,
  rate_limit: { limit: 1_000_000, window_seconds: 60 },
});
let firstError: string | undefined;
/** The gateway's admission refusals (503 with Retry-After) so far. */
let refusals = 0;
/**
 * A search over the stack, as a well-behaved client sends it: a refusal (503 with Retry-After) is
 * counted and the same search sent again after the Retry-After it gave; its latency is that of
 * the answered attempt.
 */
const overStack =
  (strategy: string): OneSearch =>
  async (i) => {
    for (;;) {
      const t = performance.now();
      const res = await fetch(`${baseUrl}/v1/jobs/search`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify(bodyOf(i, strategy)),
      });
      const text = await res.text();
      const latency = performance.now() - t;
      const retryAfter = res.headers.get('retry-after');
      if (res.status === 503 && retryAfter) {
        refusals++;
        await sleep(Number(retryAfter) * 1000);
        continue;
      }
      if (res.status === 200) return latency;
      firstError ??= `${res.status} ${text.slice(0, 300)}`;
      return undefined;
    }
  };

// ---- in process ----
const plan: ProviderSlug[] = providersForPlan('pro');
const adapters = new Map(createProviderAdapters(simUrl).map((a) => [a.provider, a]));
const requestsOf = (strategy: string): JobSearchRequest[] =>
  FILTER_SETS.map((_, i) => JobSearchRequestSchema.parse(bodyOf(i, strategy)));
const requests = requestsOf('max_coverage');
/** The plan's partners: the stack's fetcher calls these; the own index is its store, not a call. */
const planPartners = PARTNER_PROVIDER_SLUGS.filter((provider) => plan.includes(provider));
/** One provider's records for a request, through its adapter (none when the call fails). */
const ask = (provider: ProviderSlug, request: JobSearchRequest): Promise<NormalizedProviderRecord[]> =>
  adapters
    .get(provider)!
    .search({ filters: request.filters, want: request.limit, signal: AbortSignal.timeout(30_000) })
    .catch(() => []);
/** records[filter set][provider]: fetched once, before timing. */
const records: Array<Map<ProviderSlug, NormalizedProviderRecord[]>> = [];
for (const request of requests) {
  const byProvider = new Map<ProviderSlug, NormalizedProviderRecord[]>();
  for (const provider of plan) {
    byProvider.set(provider, await ask(provider, request));
  }
  records.push(byProvider);
}

/**
 * The partner calls of a search alone, in this process: every partner of the plan asked at once
 * through `@jobs/provider-adapters` (HTTP, JSON and normalization), as the fetcher does for a
 * `max_coverage` wave. A floor under the stack's cost that the in-process column leaves out.
 */
const partnerCalls: OneSearch = async (i) => {
  const request = requests[i % requests.length]!;
  const t = performance.now();
  await Promise.all(planPartners.map((provider) => ask(provider, request)));
  return performance.now() - t;
};

function toJob(index: CanonicalIndex, id: string, sources: NormalizedProviderRecord[]): Job {
  const { fields } = index.job(id)!;
  const seen = sources.map((s) => s.seen_at).sort();
  const closed = sources.find((s) => s.status === 'closed');
  return {
    id,
    title: fields.title,
    company: {
      id: `cmp_${fields.companyDomain ?? fields.companyName}`,
      name: fields.companyName,
      domain: fields.companyDomain,
    },
    location: { city: fields.city, region: fields.region, country_code: fields.countryCode, remote: fields.remote },
    employment_type: fields.employmentType as Job['employment_type'],
    seniority: fields.seniority as Job['seniority'],
    job_family: sources.find((s) => s.job_family)?.job_family ?? null,
    salary: fields.salary,
    description: fields.description,
    apply_url: fields.applyUrl,
    posted_at: fields.postedAt,
    first_seen_at: seen[0]!,
    last_seen_at: seen[seen.length - 1]!,
    last_verified_at: null,
    status: closed ? 'closed' : 'open',
    closed_reason: closed ? (closed.closed_reason ?? 'unknown') : null,
    repost_count: 0,
    p_real: 0.6,
    sources: sources.map((s) => ({
      provider: s.provider,
      provider_job_id: s.provider_job_id,
      url: s.url,
      first_seen_at: s.seen_at,
      last_seen_at: s.seen_at,
      fields: [],
    })),
    license: { display: true, resale: false },
  };
}

const inProcess = (strategy: string) => {
  const planned = requestsOf(strategy);
  return async (i: number): Promise<number | undefined> => {
    const t = performance.now();
    const startedAt = Date.now();
    const request = planned[i % planned.length]!;
    const fetched = records[i % records.length]!;
    const waterfall = planWaterfall(request, plan);
    const index = new CanonicalIndex();
    const recordsOf = new Map<string, NormalizedProviderRecord[]>();
    const batches: ProviderBatch[] = [];
    for (const wave of waterfall.waves) {
      for (const provider of wave) {
        await new Promise((resolve) => setImmediate(resolve)); // let concurrent searches interleave, as batches do
        const batch = fetched.get(provider) ?? [];
        const ids: string[] = [];
        let duplicatesMerged = 0;
        for (const record of batch) {
          const { jobId, merged, known } = index.merge(record);
          if (merged || known) duplicatesMerged += 1;
          recordsOf.set(jobId, [...(recordsOf.get(jobId) ?? []), record]);
          if (!ids.includes(jobId)) ids.push(jobId);
        }
        batches.push({
          provider,
          outcome: 'ok',
          recordsIn: batch.length,
          duplicatesMerged,
          jobs: ids.map((id) => toJob(index, id, recordsOf.get(id)!)),
        });
      }
    }
    const page = assembleSearchPage({
      requestId: `req_${i}`,
      providers: waterfall.providers,
      filters: request.filters,
      strategy: waterfall.strategy,
      minSources: request.waterfall.min_sources ?? 2,
      batches,
      limit: request.limit,
      startedAt,
      now: Date.now(),
    });
    return page.data.length >= 0 ? performance.now() - t : undefined;
  };
};

const ms = (v: number) => v.toFixed(v < 10 ? 2 : 0);
// Warm-up: connections, the own index store, and the JIT compilers. The broker's JIT (HotSpot's
// C1/C2 threads) spends as much CPU as the broker's request handling for the first few minutes of
// load after a start (2026-11-27: 9.5, 5.3, 2.8, 0.9 s of compiler CPU in four successive runs of
// 192 searches, Kafka's share of a search 33, 32, 24, 17 ms): rounds at concurrency 16 until one
// leaves the compilers under a tenth of the broker's CPU, at most BENCH_WARMUP_ROUNDS.
const warmupRounds = Number(process.env['BENCH_WARMUP_ROUNDS'] ?? 6);
const warmup: string[] = [];
for (let round = 1; round <= warmupRounds; round++) {
  const level = await runLevel(16, overStack('max_coverage'), 'stack');
  const broker = level.cpuMs.get(GROUP.kafka) ?? 0;
  const jit = level.cpuMs.get(GROUP.kafkaJit) ?? 0;
  warmup.push(`${ms(broker)} (JIT ${ms(jit)})`);
  if (jit < broker / 10) break;
}
await runLevel(4, inProcess('max_coverage'), 'self');
const rows: string[] = [];
const cpuRows: string[] = [];
const trafficRows: string[] = [];
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const vacuums: string[] = [];
for (const strategy of strategies) {
  for (const concurrency of levels) {
    vacuums.push(await vacuumIfAutovacuumIsOff(ownerDatabaseUrl(dedupeEnv['DATABASE_URL'])));
    const stack = await runLevel(concurrency, overStack(strategy), 'stack');
    const local = await runLevel(concurrency, inProcess(strategy), 'self');
    const partners = strategy === 'max_coverage' ? await runLevel(concurrency, partnerCalls, 'self') : undefined;
    /** Answered searches per second (a failed or timed-out request counts in the wall time, not as done). */
    const rps = (r: LevelResult) => (requestsPerLevel - r.errors) / r.seconds;
    rows.push(
      row([
        strategy,
        concurrency,
        requestsPerLevel,
        stack.errors,
        stack.refused,
        ms(percentile(stack.latencies, 50)),
        ms(percentile(stack.latencies, 95)),
        ms(percentile(stack.latencies, 99)),
        rps(stack).toFixed(1),
        ms(percentile(local.latencies, 50)),
        ms(percentile(local.latencies, 95)),
        ms(percentile(local.latencies, 99)),
        rps(local).toFixed(0),
        `${(percentile(stack.latencies, 50) / percentile(local.latencies, 50)).toFixed(0)}x`,
        `${(rps(local) / rps(stack)).toFixed(0)}x`,
      ]),
    );
    // the processes' columns only: the broker's JIT threads are part of Kafka's already
    const stackCpu = CPU_COLUMNS.reduce((sum, c) => sum + (stack.cpuMs.get(c) ?? 0), 0);
    const total = stack.traffic.reduce((t, [, messages, bytes]) => [t[0]! + messages, t[1]! + bytes], [0, 0]);
    const requestsTotal = stack.requests.reduce((n, [, count]) => n + count, 0);
    trafficRows.push(
      row([
        strategy,
        concurrency,
        `**${total[0]!.toFixed(1)}**`,
        `**${(total[1]! / 1024).toFixed(1)}**`,
        `**${requestsTotal.toFixed(1)}**: ${stack.requests.map(([api, count]) => `${api} ${count.toFixed(1)}`).join(', ')}`,
        stack.traffic
          .map(([topic, messages, bytes]) => `${topic} ${messages.toFixed(1)} / ${(bytes / 1024).toFixed(1)} KB`)
          .join('; '),
      ]),
    );
    cpuRows.push(
      row([
        strategy,
        concurrency,
        ...CPU_COLUMNS.map((c) => ms(stack.cpuMs.get(c) ?? 0)),
        ms(stack.cpuMs.get(GROUP.kafkaJit) ?? 0),
        `**${ms(stackCpu)}**`,
        viewerPid === undefined ? 'off' : ms(stack.cpuMs.get(VIEWER) ?? 0),
        ms(local.cpuMs.get('self') ?? 0),
        partners ? ms(partners.cpuMs.get('self') ?? 0) : '-',
      ]),
    );
  }
}
const recordsPerSearch = records.map((m) => [...m.values()].reduce((n, r) => n + r.length, 0));
process.stdout.write(
  [
    `Sync search, Pro plan, limit ${limit}, ${FILTER_SETS.length} ` +
      `filter sets cycled; ${requestsPerLevel} requests per ` +
      `concurrency level; strategies ${strategies.join(', ')} ` +
      `(default: no strategy sent, cheapest_first).`,
    `In-process = waterfall plan + CanonicalIndex merge of the ` +
      `${Math.min(...recordsPerSearch)}-${Math.max(...recordsPerSearch)} ` +
      `provider records of that filter set (fetched once from the ` +
      `simulator, untimed; every wave of the plan merged) + job ` +
      `filters + page assembly, in one Node process: no provider ` +
      `HTTP, no PostgreSQL store, no billing, no Kafka.`,
    '',
    row([
      'strategy',
      'concurrency',
      'requests',
      'stack errors',
      'refusals (503, sent again after Retry-After)',
      'answered p50 (ms)',
      'p95',
      'p99',
      'stack ok req/s',
      'in-process p50 (ms)',
      'p95',
      'p99',
      'in-process req/s',
      'p50 ratio',
      'throughput ratio',
    ]),
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
    `CPU per search (ms), by process: CPU time read from /proc ` +
      `around each stack level / answered searches (the simulated ` +
      `partners apart; refusals cost next to nothing); in-process: ` +
      `this process's CPU / searches. Partner calls in process (max_coverage): every partner of ` +
      `the plan asked at once for the same filters through the adapters (HTTP, JSON, ` +
      `normalization), this process's CPU / searches: work the in-process column leaves out and ` +
      `the stack cannot.`,
    '',
    `Kafka's share of a search includes its JIT compilers' (the ` +
      `next column), which is warm-up: the broker's share of a ` +
      `search a few minutes into load. Warm-up rounds of ` +
      `${requestsPerLevel} searches at concurrency 16, broker CPU ` +
      `per search (ms): ${warmup.join(', ')}.`,
    '',
    row([
      'strategy',
      'concurrency',
      ...CPU_COLUMNS.map((c) => SHORT[c] ?? c),
      'of which Kafka JIT',
      'stack',
      'trace viewer (apart)',
      'in-process',
      'partner calls in process',
    ]),
    `|---|---:|${CPU_COLUMNS.map(() => '---:').join('|')}|---:|---:|---:|---:|---:|`,
    ...cpuRows,
    '',
    `Kafka traffic per answered search: messages and KB (keys, values, headers) every service ` +
      `produced around each stack level, by topic, most bytes first (a refresh pass running ` +
      `meanwhile counts too: its topics are refresh.* and job.lifecycle.changed); and the requests ` +
      `the services' Kafka clients sent the broker, by API (idle groups' fetches included).`,
    '',
    row(['strategy', 'concurrency', 'messages', 'KB', 'requests to the broker, by API', 'by topic: messages / KB']),
    '|---|---:|---:|---:|---|---|',
    ...trafficRows,
  ].join('\n') + '\n',
);
process.stdout.write(
  `store upkeep before each level: ${[...new Set(vacuums.map((v) => v.replace(/ in [0-9.]+ s/, '')))].join('; ')}\n`,
);
if (firstError) process.stdout.write(`first stack error: ${firstError}\n`);
