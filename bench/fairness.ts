/**
 * Fairness benchmark: one customer's burst never gets another customer's searches refused.
 * Two Pro accounts against the running stack (1,000,000 credits and requests/min each, so no
 * account's own rate limit refuses):
 *
 *   - a quiet account sends one search every BENCH_QUIET_EVERY_MS (250) ms, open loop (it does
 *     not wait for the last answer), first alone for BENCH_SECONDS (30) s: its quiet p50;
 *   - then beside a busy account's BENCH_BUSY_CLIENTS (32) closed-loop clients, once without
 *     back-off (a refused client sends its next search at once) and once with back-off (a
 *     refused client waits its Retry-After).
 *
 * Each row, per account and phase: answers by status, the refused share, latencies, and for
 * the quiet account its p95 over its own quiet p50 (the target is at most 2x, with at most 1 %
 * refused). Searches cycle through bench/filter-sets.ts with strategy BENCH_STRATEGY
 * (max_coverage) and `limit` BENCH_LIMIT (20).
 *
 * BENCH_GATEWAYS (comma-separated base URLs; a stack started with GATEWAYS=2 runs a second
 * gateway on PORT + 2) spreads the busy account's clients over several gateways, and sends the
 * quiet account's searches to the first only: the per-replica admission's worst case, one
 * account on one replica beside another spread over all.
 *
 *   npm run up                     # in another shell (or any running stack: BASE_URL, ADMIN_URL, STACK_PIDS_FILE)
 *   npm run bench -- fairness
 */
import { resolve } from 'node:path';
import { withAdmissionGauges } from './admission-gauges.js';
import { processEnv, servicePids, stackLocation } from './proc-cpu.js';
import {
  closedLoop,
  measure,
  type Measured,
  OUTCOME_ALIGN,
  OUTCOME_HEADER,
  type Outcome,
  outcomeCells,
  row,
  type SearchShape,
  searchOnce,
} from './search-load.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 30);
const quietEveryMs = Number(process.env['BENCH_QUIET_EVERY_MS'] ?? 250);
const busyClients = Number(process.env['BENCH_BUSY_CLIENTS'] ?? 32);
const gateways = (process.env['BENCH_GATEWAYS'] ?? baseUrl).split(',').filter(Boolean);
const shape: SearchShape = {
  strategy: process.env['BENCH_STRATEGY'] ?? 'max_coverage',
  limit: Number(process.env['BENCH_LIMIT'] ?? 20),
};
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);

const account = { plan: 'pro', credits: 1_000_000, rate_limit: { limit: 1_000_000, window_seconds: 60 } };
const { liveKey: quietKey } = await createBenchAccount(account);
const { liveKey: busyKey } = await createBenchAccount(account);

/** The quiet account: one search every `quietEveryMs`, each awaited on its own. */
async function quietSearches(forSeconds: number): Promise<Outcome[]> {
  const searches: Array<Promise<Outcome>> = [];
  const until = performance.now() + forSeconds * 1000;
  while (performance.now() < until) {
    searches.push(searchOnce(quietKey, shape, gateways[0]));
    await new Promise((r) => setTimeout(r, quietEveryMs));
  }
  return Promise.all(searches);
}

/** The busy account's clients; with back-off a refused client waits its Retry-After. */
function busySearches(forSeconds: number, backOff: boolean): Promise<Outcome[]> {
  let client = 0;
  return closedLoop(busyClients, forSeconds, async (until) => {
    const outcome = await searchOnce(busyKey, shape, gateways[client++ % gateways.length]);
    const wait = Number(outcome.retryAfter ?? 0) * 1000;
    if (backOff && outcome.status !== 200 && wait > 0)
      await new Promise((r) => setTimeout(r, Math.min(wait, Math.max(0, until - performance.now()))));
    return outcome;
  });
}

interface Row {
  phase: string;
  account: string;
  measured: Measured;
  outcomes: Outcome[];
}
const rows: Row[] = [];
/** Each phase's admission gauges, per gateway. */
const gauges: string[] = [];

const alone = await measure(location, 'quiet account alone', () => quietSearches(seconds));
rows.push({ phase: alone.name, account: 'quiet', measured: alone, outcomes: alone.outcomes });
const quietP50 = percentile(
  alone.outcomes
    .filter((o) => o.status === 200)
    .map((o) => o.ms)
    .sort((a, b) => a - b),
  50,
);

for (const backOff of [false, true]) {
  await new Promise((r) => setTimeout(r, 5000));
  let busy: Outcome[] = [];
  const name = `beside ${busyClients} busy clients ${backOff ? 'honouring Retry-After' : 'without back-off'}`;
  const { measured: both, gauges: lines } = await withAdmissionGauges(gateways, () =>
    measure(location, name, async () => {
      const [quiet, busyOutcomes] = await Promise.all([quietSearches(seconds), busySearches(seconds, backOff)]);
      busy = busyOutcomes;
      return quiet;
    }),
  );
  gauges.push(`${name}:`, ...lines.map((line) => `- ${line}`));
  rows.push({ phase: name, account: 'quiet', measured: both, outcomes: both.outcomes });
  rows.push({ phase: name, account: 'busy', measured: both, outcomes: busy });
}

const lines = [
  `POST /v1/jobs/search (strategy ${shape.strategy}, limit ` +
    `${shape.limit}); quiet account every ${quietEveryMs} ms, its ` +
    `quiet p50 ${quietP50.toFixed(0)} ms`,
  `gateway ` +
    `SEARCH_MAX_IN_FLIGHT=${gatewayEnv['SEARCH_MAX_IN_FLIGHT'] ?? 'default'}, ` +
    `SEARCH_QUEUE_MAX_WAIT_MS=${gatewayEnv['SEARCH_QUEUE_MAX_WAIT_MS'] ?? 'default'}; ` +
    `stack CPU is per answer of both accounts`,
  `${gateways.length} gateway(s): the busy account round-robin ` +
    `over ${gateways.join(', ')}, the quiet one on ${gateways[0]}`,
  '',
  row(['phase', 'account', ...OUTCOME_HEADER, 'p95 / quiet p50']),
  `|---|---|${[...OUTCOME_ALIGN, '---:'].join('|')}|`,
];
for (const r of rows) {
  const answered = r.outcomes
    .filter((o) => o.status === 200)
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  const allAnswered = rows
    .filter((other) => other.measured === r.measured)
    .reduce((n, other) => n + other.outcomes.filter((o) => o.status === 200).length, 0);
  const cpuShare = allAnswered ? (r.measured.stackCpuSeconds * answered.length) / allAnswered : 0;
  const ratio = r.account === 'quiet' && answered.length ? (percentile(answered, 95) / quietP50).toFixed(2) : '-';
  lines.push(row([r.phase, r.account, ...outcomeCells(r.outcomes, r.measured.seconds, cpuShare), ratio]));
}
lines.push('', 'Admission gauges:', ...gauges);
process.stdout.write(lines.join('\n') + '\n');
if (rows.some((r) => r.outcomes.some((o) => o.status === 500 || o.status === 0))) process.exitCode = 1;
