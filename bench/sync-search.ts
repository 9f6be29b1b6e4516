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
 *
 *   npm run up                     # in another shell (or any running stack)
 *   npm run bench:sync             # BASE_URL/ADMIN_URL/ADMIN_TOKEN/PROVIDER_SIM_URL default to the dev stack
 *   BENCH_REQUESTS=256 BENCH_LIMIT=20 npm run bench:sync
 */
import type { Job, JobSearchRequest, NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';
import { JobSearchRequestSchema } from '@jobs/contracts';
import { CanonicalIndex } from '@jobs/matching';
import { providersForPlan } from '@jobs/plans';
import { createProviderAdapters } from '@jobs/provider-adapters';
import { assembleSearchPage, planWaterfall, type ProviderBatch } from '@jobs/waterfall';
import { FILTER_SETS } from './filter-sets.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const simUrl = process.env['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const requestsPerLevel = Number(process.env['BENCH_REQUESTS'] ?? 96);
const limit = Number(process.env['BENCH_LIMIT'] ?? 20);
const levels = (process.env['BENCH_CONCURRENCY'] ?? '1,16,64').split(',').map(Number);

const bodyOf = (i: number) => ({ filters: FILTER_SETS[i % FILTER_SETS.length]!, waterfall: { strategy: 'max_coverage' }, limit });

interface LevelResult {
  latencies: number[];
  seconds: number;
  errors: number;
}

/** `requests` calls of `one(i)`, `concurrency` at a time, each worker taking the next index. */
async function runLevel(concurrency: number, one: (i: number) => Promise<boolean>): Promise<LevelResult> {
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      for (let i = next++; i < requestsPerLevel; i = next++) {
        const t = performance.now();
        const ok = await one(i).catch(() => false);
        latencies.push(performance.now() - t);
        if (!ok) errors++;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000, errors };
}

// ---- full stack ----
const { liveKey: key } = await createBenchAccount({ plan: 'pro', credits: 1_000_000, rate_limit: { limit: 1_000_000, window_seconds: 60 } });
let firstError: string | undefined;
const overStack = async (i: number): Promise<boolean> => {
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(bodyOf(i)),
  });
  const text = await res.text();
  if (res.status !== 200) firstError ??= `${res.status} ${text.slice(0, 300)}`;
  return res.status === 200;
};

// ---- in process ----
const plan: ProviderSlug[] = providersForPlan('pro');
const adapters = new Map(createProviderAdapters(simUrl).map((a) => [a.provider, a]));
const requests: JobSearchRequest[] = FILTER_SETS.map((_, i) => JobSearchRequestSchema.parse(bodyOf(i)));
/** records[filter set][provider]: fetched once, before timing. */
const records: Array<Map<ProviderSlug, NormalizedProviderRecord[]>> = [];
for (const request of requests) {
  const byProvider = new Map<ProviderSlug, NormalizedProviderRecord[]>();
  for (const provider of plan) {
    const adapter = adapters.get(provider)!;
    byProvider.set(provider, await adapter.search({ filters: request.filters, want: request.limit, signal: AbortSignal.timeout(30_000) }).catch(() => []));
  }
  records.push(byProvider);
}

function toJob(index: CanonicalIndex, id: string, sources: NormalizedProviderRecord[]): Job {
  const { fields } = index.job(id)!;
  const seen = sources.map((s) => s.seen_at).sort();
  const closed = sources.find((s) => s.status === 'closed');
  return {
    id,
    title: fields.title,
    company: { id: `cmp_${fields.companyDomain ?? fields.companyName}`, name: fields.companyName, domain: fields.companyDomain },
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
    sources: sources.map((s) => ({ provider: s.provider, provider_job_id: s.provider_job_id, url: s.url, first_seen_at: s.seen_at, last_seen_at: s.seen_at, fields: [] })),
    license: { display: true, resale: false },
  };
}

const inProcess = async (i: number): Promise<boolean> => {
  const startedAt = Date.now();
  const request = requests[i % requests.length]!;
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
      for (const record of batch) {
        const { jobId } = index.merge(record);
        recordsOf.set(jobId, [...(recordsOf.get(jobId) ?? []), record]);
        if (!ids.includes(jobId)) ids.push(jobId);
      }
      batches.push({ provider, outcome: 'ok', recordsIn: batch.length, jobs: ids.map((id) => toJob(index, id, recordsOf.get(id)!)) });
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
  return page.data.length >= 0;
};

await runLevel(4, overStack); // warm-up: JIT, connections, the own index store
await runLevel(4, inProcess);
const rows: string[] = [];
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
for (const concurrency of levels) {
  const stack = await runLevel(concurrency, overStack);
  const local = await runLevel(concurrency, inProcess);
  /** Answered searches per second (a failed or timed-out request counts in the wall time, not as done). */
  const rps = (r: LevelResult) => (requestsPerLevel - r.errors) / r.seconds;
  const ms = (v: number) => v.toFixed(v < 10 ? 2 : 0);
  rows.push(
    row([
      concurrency,
      requestsPerLevel,
      stack.errors,
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
}
const recordsPerSearch = records.map((m) => [...m.values()].reduce((n, r) => n + r.length, 0));
process.stdout.write(
  [
    `Sync search, Pro plan, max_coverage, limit ${limit}, ${FILTER_SETS.length} filter sets cycled; ${requestsPerLevel} requests per concurrency level.`,
    `In-process = waterfall plan + CanonicalIndex merge of the ${Math.min(...recordsPerSearch)}-${Math.max(...recordsPerSearch)} provider records of that filter set (fetched once from the simulator, untimed) + job filters + page assembly, in one Node process: no provider HTTP, no PostgreSQL store, no billing, no Kafka.`,
    '',
    row(['concurrency', 'requests', 'stack errors', 'stack p50 (ms)', 'p95', 'p99', 'stack ok req/s', 'in-process p50 (ms)', 'p95', 'p99', 'in-process req/s', 'p50 ratio', 'throughput ratio']),
    '|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows,
  ].join('\n') + '\n',
);
if (firstError) process.stdout.write(`first stack error: ${firstError}\n`);
