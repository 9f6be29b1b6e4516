/**
 * bench:refresh-pass: what one refresh pass costs a running stack. Runs `--passes` passes one
 * after the other (POST /admin/refresh, awaited through GET /admin/refresh/{id}), reads every
 * process's CPU from /proc before and after each, and prints per pass its wall time, its sweeps
 * and the CPU-seconds each process spent, then the mean; the background share of one core at the
 * stack's refresh interval is mean CPU-seconds / interval. Then the store's verification ages and
 * freshness bound per provider, as dedupe last measured them (`verification` of the refresh status).
 *
 * Environment: STACK_PIDS_FILE (default `.local/run/dev/pids.json`), BASE_URL, ADMIN_URL,
 * ADMIN_TOKEN (the dev stack of `npm run up`).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { admin, refreshPass } from '@jobs/e2e-support';
import { SEARCH_PATH_COLUMNS, SHORT_COLUMN_NAMES, snapshot, stackOf, usageBetween } from './proc-cpu.js';

const { values } = parseArgs({ options: { passes: { type: 'string', default: '5' } } });
const passes = Number(values.passes);
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const { env: dedupeEnv, location } = stackOf(pidsFile, 'dedupe');
const intervalMs = Number(dedupeEnv['REFRESH_INTERVAL_MS'] ?? 60_000);

const COLUMNS = [...SEARCH_PATH_COLUMNS, 'provider-sim'] as const;
const SHORT = SHORT_COLUMN_NAMES;

interface PassFigures {
  id: string;
  wallS: number;
  sweeps: string;
  cpu: Record<string, number>;
}

interface Verification {
  measured_at: string;
  providers: Record<
    string,
    {
      max_age_seconds: number;
      p99_age_seconds: number;
      listed_sources: number;
      bound_seconds: number;
      current_bound_seconds: number;
      holds: boolean;
    }
  >;
}

/**
 * The store's verification ages and freshness bound per provider, as dedupe last measured them (the refresh status'
 * `verification`).
 */
function printVerification(status: { verification?: Verification | null } | null): void {
  const verification = status?.verification;
  if (!verification)
    return void console.log('\nNo verification measure yet (dedupe measures once an interval, at most once a minute).');
  console.log(`\nVerification age of the open jobs' listed sources, measured ${verification.measured_at}:\n`);
  console.log('| provider | listed sources | max age s | p99 age s | promised bound s | current bound s | holds |');
  console.log('|---|---:|---:|---:|---:|---:|---|');
  for (const [provider, v] of Object.entries(verification.providers)) {
    console.log(
      `| ${provider} | ${v.listed_sources} | ` +
        `${v.max_age_seconds.toFixed(0)} | ` +
        `${v.p99_age_seconds.toFixed(0)} | ` +
        `${v.bound_seconds.toFixed(0)} | ` +
        `${v.current_bound_seconds.toFixed(0)} | ` +
        `${v.holds ? 'yes' : 'no'} |`,
    );
  }
}

const rows: PassFigures[] = [];
for (let i = 0; i < passes; i++) {
  const before = snapshot(location);
  const started = Date.now();
  const id = await refreshPass(600_000);
  const wallS = (Date.now() - started) / 1000;
  const usage = usageBetween(before, snapshot(location));
  const status = (await admin('GET', `/refresh/${id}`)) as { sweeps?: { total: number; complete: number } } | null;
  const cpu = Object.fromEntries(COLUMNS.map((c) => [c, usage.get(c)?.seconds ?? 0]));
  rows.push({ id, wallS, sweeps: `${status?.sweeps?.complete ?? '?'}/${status?.sweeps?.total ?? '?'}`, cpu });
  process.stderr.write(
    `[bench:refresh-pass] ${id}: ${wallS.toFixed(1)} s, ${Object.values(cpu)
      .reduce((a, b) => a + b, 0)
      .toFixed(1)} CPU-s\n`,
  );
}

const total = (r: PassFigures) => Object.values(r.cpu).reduce((a, b) => a + b, 0);
const header = [
  'pass',
  'wall s',
  'sweeps complete/all',
  ...COLUMNS.map((c) => `${SHORT[c] ?? c} CPU-s`),
  'stack CPU-s',
];
const lines = [`| ${header.join(' | ')} |`, `|${header.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`];
for (const r of rows)
  lines.push(
    `| ${r.id} | ${r.wallS.toFixed(1)} | ${r.sweeps} | ` +
      `${COLUMNS.map((c) => r.cpu[c]!.toFixed(2)).join(' | ')} | ` +
      `${total(r).toFixed(2)} |`,
  );
const mean = (f: (r: PassFigures) => number) => rows.reduce((a, r) => a + f(r), 0) / rows.length;
lines.push(
  `| mean | ${mean((r) => r.wallS).toFixed(1)} | | ` +
    `${COLUMNS.map((c) => mean((r) => r.cpu[c]!).toFixed(2)).join(' | ')} ` +
    `| ${mean(total).toFixed(2)} |`,
);
console.log(lines.join('\n'));
printVerification(
  (await admin('GET', `/refresh/${rows[rows.length - 1]!.id}`)) as { verification?: Verification | null } | null,
);

console.log(
  `\nAt REFRESH_INTERVAL_MS ${intervalMs}: one pass per ` +
    `interval costs ` +
    `${((100 * mean(total)) / (intervalMs / 1000)).toFixed(1)}% ` +
    `of one core (passes back to back here, so nothing else ran ` +
    `between them).`,
);
