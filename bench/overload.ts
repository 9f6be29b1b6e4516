/**
 * Overload benchmark: sync searches beyond what the gateway lets into the pipeline wait briefly
 * in its fair queue, are refused with `Retry-After` only when that wait cannot be met, and are
 * never answered 500. One Pro account (1,000,000 credits and requests/min, so its own rate limit
 * never refuses), against the running stack:
 *
 *   - quiet: BENCH_QUIET (24) searches one at a time: the quiet p50/p95;
 *   - for each concurrency of BENCH_CONCURRENCIES (16,64,256): that many closed-loop clients for
 *     BENCH_SECONDS (30) s, first without retries (a refusal ends that search), then with
 *     retries (a refused search waits its Retry-After and tries again, within the run);
 *   - burst: BENCH_BURST (256) searches sent at once, no retry, and how many were answered
 *     within their own deadline (the default `timeout_ms`, 10 s).
 *
 * Each row: answers by status, the refused share, p50/p95 of the answered and of the refusals,
 * answered/s and the whole stack's CPU per answered search (/proc). Searches cycle through
 * bench/filter-sets.ts with `limit` BENCH_LIMIT (20) and strategy BENCH_STRATEGY (max_coverage).
 *
 *   npm run up                     # in another shell (or any running stack: BASE_URL, ADMIN_URL, STACK_PIDS_FILE)
 *   npm run bench -- overload
 */
import { resolve } from 'node:path';
import { withAdmissionGauges } from './admission-gauges.js';
import { processEnv, servicePids, stackLocation } from './proc-cpu.js';
import {
  closedLoop,
  measure,
  type Measured,
  type Outcome,
  OUTCOME_ALIGN,
  OUTCOME_HEADER,
  outcomeCells,
  row,
  type SearchShape,
  searchOnce,
  searchWithRetries,
} from './search-load.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const quietCount = Number(process.env['BENCH_QUIET'] ?? 24);
const burstCount = Number(process.env['BENCH_BURST'] ?? 256);
const concurrencies = (process.env['BENCH_CONCURRENCIES'] ?? '16,64,256').split(',').map(Number);
const seconds = Number(process.env['BENCH_SECONDS'] ?? 30);
const shape: SearchShape = {
  strategy: process.env['BENCH_STRATEGY'] ?? 'max_coverage',
  limit: Number(process.env['BENCH_LIMIT'] ?? 20),
};
const DEADLINE_MS = 10_000;
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);

const { liveKey: key } = await createBenchAccount({
  plan: 'pro',
  credits: 1_000_000,
  rate_limit: { limit: 1_000_000, window_seconds: 60 },
});
const settle = () => new Promise((r) => setTimeout(r, 5000));

const phases: Measured[] = [];
/** Each phase's admission gauges. */
const gauges: string[] = [];
async function phase(name: string, run: () => Promise<Outcome[]>): Promise<Measured> {
  const { measured, gauges: lines } = await withAdmissionGauges([baseUrl], () => measure(location, name, run));
  gauges.push(`- ${name}: ${lines.join('; ')}`);
  return measured;
}
const quiet = await phase('quiet, one at a time', async () => {
  const out = [];
  for (let i = 0; i < quietCount; i++) out.push(await searchOnce(key, shape));
  return out;
});
phases.push(quiet);
for (const clients of concurrencies) {
  await settle();
  phases.push(
    await phase(`${clients} clients, no retries, ${seconds} s`, () =>
      closedLoop(clients, seconds, () => searchOnce(key, shape)),
    ),
  );
  await settle();
  phases.push(
    await phase(`${clients} clients, retrying after Retry-After, ${seconds} s`, () =>
      closedLoop(clients, seconds, (until) => searchWithRetries(key, shape, until)),
    ),
  );
}
await settle();
const burst = await phase(`burst: ${burstCount} at once, no retries`, () =>
  Promise.all(Array.from({ length: burstCount }, () => searchOnce(key, shape))),
);
phases.push(burst);

const quietSorted = quiet.outcomes
  .filter((o) => o.status === 200)
  .map((o) => o.ms)
  .sort((a, b) => a - b);
const lines = [
  `POST /v1/jobs/search (strategy ${shape.strategy}, limit ` +
    `${shape.limit}), one Pro account; quiet p50 ` +
    `${percentile(quietSorted, 50).toFixed(0)} ms, p95 ` +
    `${percentile(quietSorted, 95).toFixed(0)} ms`,
  `gateway ` +
    `SEARCH_MAX_IN_FLIGHT=${gatewayEnv['SEARCH_MAX_IN_FLIGHT'] ?? 'default'}, ` +
    `SEARCH_QUEUE_MAX_WAIT_MS=${gatewayEnv['SEARCH_QUEUE_MAX_WAIT_MS'] ?? 'default'}`,
  '',
  row(['phase', ...OUTCOME_HEADER, 'gateway CPU ms/request']),
  `|---|${[...OUTCOME_ALIGN, '---:'].join('|')}|`,
];
for (const p of phases) {
  lines.push(
    row([
      p.name,
      ...outcomeCells(p.outcomes, p.seconds, p.stackCpuSeconds),
      ((1000 * p.gatewayCpuSeconds) / Math.max(1, p.outcomes.length)).toFixed(2),
    ]),
  );
}
const withinDeadline = burst.outcomes.filter((o) => o.status === 200 && o.ms <= DEADLINE_MS).length;
lines.push(
  '',
  `burst: ${withinDeadline} of ${burstCount} answered within ` +
    `their ${DEADLINE_MS / 1000} s deadline ` +
    `(${((100 * withinDeadline) / burstCount).toFixed(1)} %)`,
);
lines.push('', 'Admission gauges:', ...gauges);
process.stdout.write(lines.join('\n') + '\n');
if (phases.some((p) => p.outcomes.some((o) => o.status === 500 || o.status === 0))) process.exitCode = 1;
