/**
 * Dry-run estimates against the truth: for each realistic filter set, the free `dry_run` answer of
 * a `max_coverage` search beside what walking every page of the same request returns (the unique
 * jobs over all its `next_cursor` pages), and the stack's CPU per dry run.
 *
 * 1. Another Pro account (every provider) walks each filter set once first, so the store holds what
 *    the partners list for it, as it does after customers' first searches (BENCH_PRIME=0 skips it:
 *    on a fresh stack the store then holds the own crawler's openings and the partners' newest).
 * 2. Per filter set: a dry run (its range, providers planned, credits range) and then every page
 *    (limit 100) of the same request, counting unique job ids; then the same dry run again (the
 *    account has now paid for every job: its credits range must be 0 to 0).
 * 3. BENCH_DRY_RUNS dry runs over the filter sets, one at a time, with the stack's CPU per process
 *    sampled before and after (bench/proc-cpu.ts).
 *
 *   npm run bench -- estimates          # needs a running stack (npm run up)
 *
 * Env: BENCH_PRIME (1), BENCH_DRY_RUNS (60), BENCH_MAX_PAGES (200 pages a walk at most),
 * STACK_PIDS_FILE, BASE_URL, ADMIN_URL, ADMIN_TOKEN.
 */
import { resolve } from 'node:path';
import type { Filters } from '@jobs/contracts';
import { SEARCH_PATH_COLUMNS, SHORT_COLUMN_NAMES, snapshot, stackOf, usageBetween } from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const prime = process.env['BENCH_PRIME'] !== '0';
const dryRuns = Number(process.env['BENCH_DRY_RUNS'] ?? 60);
const maxPages = Number(process.env['BENCH_MAX_PAGES'] ?? 200);
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const { location } = stackOf(pidsFile, 'dedupe');

/** Narrow and broad sets, some matched mostly by the own crawler, some by partners only. */
const FILTER_SETS: { name: string; filters: Filters }[] = [
  {
    name: 'backend engineer, DE, senior',
    filters: { title_or: ['backend engineer'], country_code_or: ['DE'], seniority_or: ['senior'] },
  },
  { name: 'data engineer, FR', filters: { title_or: ['data engineer'], country_code_or: ['FR'] } },
  { name: 'product manager, remote', filters: { title_or: ['product manager'], remote: true } },
  {
    name: 'designer, US, junior',
    filters: { title_or: ['designer'], country_code_or: ['US'], seniority_or: ['junior'] },
  },
  { name: 'engineer, GB', filters: { title_or: ['engineer'], country_code_or: ['GB'] } },
  { name: 'analyst, US or CA', filters: { title_or: ['analyst'], country_code_or: ['US', 'CA'] } },
  { name: 'sales, DE/FR/NL', filters: { title_or: ['sales'], country_code_or: ['DE', 'FR', 'NL'] } },
  { name: 'developer, last 14 days', filters: { title_or: ['developer'], posted_within_days: 14 } },
  { name: 'data, senior or lead', filters: { title_or: ['data'], seniority_or: ['senior', 'lead'] } },
  { name: 'product, salary >= 50k', filters: { title_or: ['product'], salary_min_gte: 50_000 } },
  { name: 'marketing, not intern', filters: { title_or: ['marketing'], title_not: ['intern'] } },
  { name: 'support or specialist, on site', filters: { title_or: ['support', 'specialist'], remote: false } },
  { name: 'recruiter', filters: { title_or: ['recruiter'] } },
  { name: 'compliance', filters: { title_or: ['compliance'] } },
  { name: 'accountant, full time', filters: { title_or: ['accountant'], employment_type_or: ['full_time'] } },
  { name: 'devops, remote, senior', filters: { title_or: ['devops'], remote: true, seniority_or: ['senior'] } },
  { name: 'machine learning, US', filters: { title_or: ['machine learning'], country_code_or: ['US'] } },
  { name: 'customer success, ES or IT', filters: { title_or: ['customer success'], country_code_or: ['ES', 'IT'] } },
  { name: 'frontend, contract', filters: { title_or: ['frontend'], employment_type_or: ['contract'] } },
  { name: 'operations manager, NL', filters: { title_or: ['operations manager'], country_code_or: ['NL'] } },
  { name: 'security engineer', filters: { title_or: ['security engineer'] } },
  { name: 'intern, DE', filters: { title_or: ['intern'], country_code_or: ['DE'] } },
];

interface Estimate {
  expected_unique_jobs_range: { min: number; max: number };
  providers_planned: string[];
  credits_range: { min: number; max: number };
}

const settings = { plan: 'pro', credits: 100_000_000, rate_limit: { limit: 1_000_000, window_seconds: 60 } };
/** The customer measured, and another one whose searches first bring the partners' postings into the store. */
const { liveKey: customer } = await createBenchAccount(settings);
const { liveKey: primer } = await createBenchAccount(settings);
let key = primer;

async function search(body: Record<string, unknown>): Promise<Record<string, unknown>> {
  for (;;) {
    const res = await fetch(`${baseUrl}/v1/jobs/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status === 503 && res.headers.get('retry-after')) {
      await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
      continue;
    }
    const text = await res.text();
    if (res.status !== 200) throw new Error(`search answered ${res.status}: ${text}`);
    return JSON.parse(text) as Record<string, unknown>;
  }
}

const requestOf = (filters: Filters) => ({ filters, waterfall: { strategy: 'max_coverage' }, limit: 100 });

async function dryRun(filters: Filters): Promise<Estimate> {
  return (await search({ ...requestOf(filters), dry_run: true }))['estimate'] as Estimate;
}

/** Every page of the request: its unique job ids. */
async function walk(filters: Filters): Promise<{ jobs: number; pages: number }> {
  const ids = new Set<string>();
  let cursor: string | null = null;
  let pages = 0;
  do {
    const page = await search({ ...requestOf(filters), ...(cursor ? { cursor } : {}) });
    for (const job of page['data'] as { id: string }[]) ids.add(job.id);
    cursor = page['next_cursor'] as string | null;
    pages++;
  } while (cursor && pages < maxPages);
  return { jobs: ids.size, pages };
}

const log = (message: string) => process.stderr.write(`[bench:estimates] ${message}\n`);

if (prime) {
  log(`priming: another account walks the ${FILTER_SETS.length} filter sets once ...`);
  for (const set of FILTER_SETS) await walk(set.filters);
}
key = customer;

interface Row {
  name: string;
  range: { min: number; max: number };
  walked: number;
  pages: number;
  planned: number;
  credits: { min: number; max: number };
  paidCredits: { min: number; max: number };
}
const rows: Row[] = [];
for (const set of FILTER_SETS) {
  const estimate = await dryRun(set.filters);
  const { jobs, pages } = await walk(set.filters);
  const paid = await dryRun(set.filters);
  rows.push({
    name: set.name,
    range: estimate.expected_unique_jobs_range,
    walked: jobs,
    pages,
    planned: estimate.providers_planned.length,
    credits: estimate.credits_range,
    paidCredits: paid.credits_range,
  });
  log(
    `${set.name}: ` +
      `${estimate.expected_unique_jobs_range.min}-${estimate.expected_unique_jobs_range.max}, ` +
      `walked ${jobs}`,
  );
}

log(`${dryRuns} dry runs, one at a time, stack CPU sampled; then as long idle (the background's share) ...`);
const latencies: number[] = [];
const before = snapshot(location);
const startedAt = performance.now();
for (let i = 0; i < dryRuns; i++) {
  const started = performance.now();
  await dryRun(FILTER_SETS[i % FILTER_SETS.length]!.filters);
  latencies.push(performance.now() - started);
}
const busy = snapshot(location);
const usage = usageBetween(before, busy);
const busyMs = performance.now() - startedAt;
// the refresh passes and rounds run meanwhile: the same time idle right after is their share
await new Promise((r) => setTimeout(r, busyMs));
const idle = usageBetween(busy, snapshot(location));
latencies.sort((a, b) => a - b);

const ratio = (r: Row) =>
  r.range.min === 0 ? (r.range.max === 0 ? 1 : Number.POSITIVE_INFINITY) : r.range.max / r.range.min;
const contains = (r: Row) => r.range.min <= r.walked && r.walked <= r.range.max;
const ratios = rows.map(ratio).sort((a, b) => a - b);
const fmt = (x: number) => (Number.isFinite(x) ? x.toFixed(2) : 'inf');

console.log('\n## Dry-run estimates\n');
console.log('| filter set | range | all pages returned | pages | in range | max/min | credits (new / all paid) |');
console.log('|---|---:|---:|---:|---|---:|---|');
for (const r of rows)
  console.log(
    `| ${r.name} | ${r.range.min}-${r.range.max} | ${r.walked} | ${r.pages} | ${contains(r) ? 'yes' : '**no**'} | ` +
      `${fmt(ratio(r))} | ${r.credits.min}-${r.credits.max} / ${r.paidCredits.min}-${r.paidCredits.max} |`,
  );
console.log(
  `\n${rows.filter(contains).length}/${rows.length} ranges contain what walking every page returned; ` +
    `max/min median ${fmt(percentile(ratios, 50))}, worst ${fmt(ratios[ratios.length - 1]!)}; ` +
    `credits 0-0 once every job was paid for: ${rows.filter((r) => r.paidCredits.max === 0).length}/${rows.length}.`,
);
const cpu = SEARCH_PATH_COLUMNS.map(
  (c) => [c, (Math.max(0, (usage.get(c)?.seconds ?? 0) - (idle.get(c)?.seconds ?? 0)) * 1000) / dryRuns] as const,
);
const total = cpu.reduce((sum, [, ms]) => sum + ms, 0);
console.log(
  `\n${dryRuns} dry runs one at a time: p50 ${percentile(latencies, 50).toFixed(1)} ms, ` +
    `p95 ${percentile(latencies, 95).toFixed(1)} ms; stack CPU ` +
    `per dry run, less the same time idle, ${total.toFixed(1)} ms ` +
    `(${cpu.map(([c, ms]) => `${SHORT_COLUMN_NAMES[c] ?? c} ${ms.toFixed(1)}`).join(', ')}; ` +
    `the simulated partners apart: ${(((usage.get('provider-sim')?.seconds ?? 0) * 1000) / dryRuns).toFixed(1)}).`,
);
