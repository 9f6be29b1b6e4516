/**
 * Overload benchmark (issue 14, item 6): sync searches beyond the gateway's capacity are refused
 * quickly with `Retry-After` (503 at capacity, 429 over the account's limit), never a 500, and
 * the searches it answers keep their latency. Three phases against the running stack, one Pro
 * account (1,000,000 credits, 1,000,000 requests/min, so its own rate limit never refuses):
 *
 *   1. quiet: BENCH_QUIET (24) searches one at a time: the quiet p50/p95;
 *   2. burst: BENCH_BURST (256) searches sent at once, no retry;
 *   3. sustained: BENCH_CONCURRENCY (64) clients for BENCH_SUSTAINED_SECONDS (60) s, each sending
 *      its next search when the last was answered, or after the `Retry-After` it was given.
 *
 * Each phase: answers by status, p50/p95 of the answered (200) and of the refusals, refusals
 * without `Retry-After`, and the gateway's CPU (ms per request, /proc). Searches cycle through
 * bench/filter-sets.ts with `limit` BENCH_LIMIT (20), strategy BENCH_STRATEGY (the default one;
 * `max_coverage` asks every provider).
 *
 *   npm run up                     # in another shell (or any running stack: BASE_URL, ADMIN_URL, STACK_PIDS_FILE)
 *   npm run bench:overload
 */
import { resolve } from 'node:path';
import { FILTER_SETS } from './filter-sets.js';
import { processEnv, servicePids, snapshot, stackLocation, usageBetween } from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const quietCount = Number(process.env['BENCH_QUIET'] ?? 24);
const burstCount = Number(process.env['BENCH_BURST'] ?? 256);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 64);
const sustainedSeconds = Number(process.env['BENCH_SUSTAINED_SECONDS'] ?? 60);
const limit = Number(process.env['BENCH_LIMIT'] ?? 20);
const strategy = process.env['BENCH_STRATEGY'] ?? 'default';
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayPid = servicePids(pidsFile)['gateway']!;
const gatewayEnv = processEnv(gatewayPid);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);

const { liveKey: key } = await createBenchAccount({ plan: 'pro', credits: 1_000_000, rate_limit: { limit: 1_000_000, window_seconds: 60 } });

interface Outcome {
  status: number;
  ms: number;
  retryAfter: string | null;
}

let sent = 0;
async function search(): Promise<Outcome> {
  const i = sent++;
  const body = { filters: FILTER_SETS[i % FILTER_SETS.length]!, ...(strategy === 'default' ? {} : { waterfall: { strategy } }), limit };
  const t = performance.now();
  try {
    const res = await fetch(`${baseUrl}/v1/jobs/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t, retryAfter: res.headers.get('retry-after') };
  } catch {
    return { status: 0, ms: performance.now() - t, retryAfter: null };
  }
}

interface Phase {
  name: string;
  outcomes: Outcome[];
  seconds: number;
  gatewayCpuMs: number;
}

async function phase(name: string, run: () => Promise<Outcome[]>): Promise<Phase> {
  const before = snapshot(location);
  const started = performance.now();
  const outcomes = await run();
  const seconds = (performance.now() - started) / 1000;
  const usage = usageBetween(before, snapshot(location));
  return { name, outcomes, seconds, gatewayCpuMs: ((usage.get('gateway')?.seconds ?? 0) * 1000) / Math.max(1, outcomes.length) };
}

const quiet = await phase('quiet, one at a time', async () => {
  const out: Outcome[] = [];
  for (let i = 0; i < quietCount; i++) out.push(await search());
  return out;
});
const burst = await phase(`burst: ${burstCount} at once`, () => Promise.all(Array.from({ length: burstCount }, search)));
// Let the burst's admitted searches and the pipeline settle before the next phase.
await new Promise((r) => setTimeout(r, 5000));
const sustained = await phase(`sustained: ${concurrency} clients honouring Retry-After, ${sustainedSeconds} s`, async () => {
  const out: Outcome[] = [];
  const until = performance.now() + sustainedSeconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const o = await search();
        out.push(o);
        const wait = Number(o.retryAfter ?? 0);
        if (o.status !== 200 && wait > 0) await new Promise((r) => setTimeout(r, Math.min(wait * 1000, Math.max(0, until - performance.now()))));
      }
    }),
  );
  return out;
});

const ms = (values: number[], p: number) => (values.length ? percentile(values, p).toFixed(0) : '-');
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const quietP95 = percentile(quiet.outcomes.filter((o) => o.status === 200).map((o) => o.ms).sort((a, b) => a - b), 95);
const lines = [
  `POST /v1/jobs/search (strategy ${strategy}, limit ${limit}), one Pro account; gateway SEARCH_MAX_IN_FLIGHT=${gatewayEnv['SEARCH_MAX_IN_FLIGHT'] ?? 'default'}`,
  '',
  row(['phase', 'requests', '200', '503', '429', '500', 'other', 'refusals without Retry-After', 'answered p50 (ms)', 'answered p95', 'answered p95 / quiet p95', 'refusal p50 (ms)', 'refusal p95', 'Retry-After (s) min-max', 'answered/s', 'gateway CPU ms/request']),
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|',
];
for (const p of [quiet, burst, sustained]) {
  const by = (status: number) => p.outcomes.filter((o) => o.status === status);
  const answered = by(200).map((o) => o.ms).sort((a, b) => a - b);
  const refusals = p.outcomes.filter((o) => o.status === 503 || o.status === 429);
  const refusalMs = refusals.map((o) => o.ms).sort((a, b) => a - b);
  const retryAfters = refusals.map((o) => Number(o.retryAfter)).filter((n) => Number.isFinite(n) && n > 0);
  const other = p.outcomes.filter((o) => ![200, 503, 429, 500].includes(o.status)).length;
  lines.push(
    row([
      p.name,
      p.outcomes.length,
      answered.length,
      by(503).length,
      by(429).length,
      by(500).length,
      other,
      refusals.filter((o) => !o.retryAfter).length,
      ms(answered, 50),
      ms(answered, 95),
      answered.length && quietP95 ? (percentile(answered, 95) / quietP95).toFixed(2) : '-',
      ms(refusalMs, 50),
      ms(refusalMs, 95),
      retryAfters.length ? `${Math.min(...retryAfters)}-${Math.max(...retryAfters)}` : '-',
      (answered.length / p.seconds).toFixed(1),
      p.gatewayCpuMs.toFixed(2),
    ]),
  );
}
process.stdout.write(lines.join('\n') + '\n');
if ([quiet, burst, sustained].some((p) => p.outcomes.some((o) => o.status === 500 || o.status === 0))) process.exitCode = 1;
