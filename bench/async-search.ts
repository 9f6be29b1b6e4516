/**
 * Async search benchmark: one 10,000-job async search (broad filters, max_coverage) against the
 * running stack, from POST /v1/searches to `completed`, on an admin-created Pro account with
 * enough credits. Prints its wall time and jobs/s, and checks the account was charged exactly
 * once per collected job.
 *
 *   npm run up                     # in another shell (or any running stack)
 *   npm run bench -- async            # BASE_URL/ADMIN_URL/ADMIN_TOKEN default to the dev stack
 *   BENCH_LIMIT=2000 BASE_URL=http://127.0.0.1:26080 ADMIN_URL=http://127.0.0.1:26081 npm run bench -- async
 */
import { resolve } from 'node:path';
import {
  machineBetween,
  SEARCH_PATH_COLUMNS,
  SHORT_COLUMN_NAMES,
  snapshot,
  stackOf,
  usageBetween,
} from './proc-cpu.js';
import { baseUrl, createBenchAccount } from './stack.js';

const limit = Number(process.env['BENCH_LIMIT'] ?? 10_000);
const timeoutMs = Number(process.env['BENCH_TIMEOUT_MS'] ?? 30 * 60_000);
const filters = {
  title_or: [
    'engineer',
    'manager',
    'analyst',
    'developer',
    'designer',
    'specialist',
    'lead',
    'sales',
    'support',
    'data',
    'product',
    'marketing',
  ],
  include_closed: true,
};

type Json = Record<string, unknown>;

/** CPU per process from /proc around the search (bench/proc-cpu.ts), when the stack's pids file is here. */
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const location = (() => {
  try {
    return stackOf(pidsFile, 'dedupe').location;
  } catch {
    return undefined;
  }
})();
/** The stack's processes, then the simulated partners (apart from the stack's total). */
const CPU_COLUMNS = [...SEARCH_PATH_COLUMNS, 'provider-sim'] as const;
const SHORT = SHORT_COLUMN_NAMES;

async function call(
  url: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<{ status: number; body: Json }> {
  const res = await fetch(url, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json' }), ...init.headers },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

const { liveKey: key } = await createBenchAccount({
  plan: 'pro',
  credits: limit * 2,
  rate_limit: { limit: 100_000, window_seconds: 60 },
});
const auth = { authorization: `Bearer ${key}` };

const cpuBefore = location && snapshot(location);
const started = Date.now();
const created = await call(`${baseUrl}/v1/searches`, {
  body: { filters, waterfall: { strategy: 'max_coverage' }, limit },
  headers: auth,
});
if (created.status !== 202)
  throw new Error(`POST /v1/searches answered ${created.status}: ${JSON.stringify(created.body)}`);
const id = String(created.body['id']);

let search: Json = created.body;
const progress: Array<[number, number]> = [];
while (!['completed', 'partial', 'failed'].includes(String(search['status']))) {
  if (Date.now() - started > timeoutMs)
    throw new Error(`search ${id} still ${String(search['status'])} after ${timeoutMs} ms`);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const read = await call(`${baseUrl}/v1/searches/${id}?limit=1`, { headers: auth });
  if (read.status === 200) search = read.body;
  progress.push([Date.now() - started, Number(search['jobs_found'])]);
}
const wallMs = Date.now() - started;
const cpuAfter = location && snapshot(location);
const found = Number(search['jobs_found']);
const metadata = search['metadata'] as {
  credits_charged: number;
  duplicates_merged: number;
  providers: { tried: string[]; failed: unknown[] };
};
const balance = await call(`${baseUrl}/v1/account`, { headers: auth });
const spent = limit * 2 - Number(balance.body['credits_remaining']);

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const firstThousand = progress.find(([, n]) => n >= Math.min(1000, found))?.[0];
const lines = [
  row([
    'search',
    'status',
    'jobs_found',
    'wall time (s)',
    'jobs/s',
    'first 1,000 jobs (s)',
    'credits charged',
    'credits spent',
    'duplicates merged',
    'providers',
  ]),
  '|---|---|---:|---:|---:|---:|---:|---:|---:|---|',
  row([
    `limit ${limit.toLocaleString('en')}, max_coverage`,
    String(search['status']),
    found.toLocaleString('en'),
    (wallMs / 1000).toFixed(1),
    (found / (wallMs / 1000)).toFixed(1),
    firstThousand === undefined ? '-' : (firstThousand / 1000).toFixed(1),
    metadata.credits_charged.toLocaleString('en'),
    spent.toLocaleString('en'),
    metadata.duplicates_merged.toLocaleString('en'),
    `${metadata.providers.tried.length} tried, ${metadata.providers.failed.length} failed`,
  ]),
];
if (cpuBefore && cpuAfter) {
  const usage = usageBetween(cpuBefore, cpuAfter);
  const machine = machineBetween(cpuBefore, cpuAfter);
  const seconds = (column: string) => usage.get(column)?.seconds ?? 0;
  const stack = CPU_COLUMNS.filter((c) => c !== 'provider-sim').reduce((sum, c) => sum + seconds(c), 0);
  lines.push(
    '',
    'CPU-seconds by process during the search (/proc; the ' +
      'simulator apart from the stack total), and the whole ' +
      'machine:',
    '',
    row([...CPU_COLUMNS.map((c) => SHORT[c] ?? c), 'stack', 'CPU-ms per job', `machine busy (${machine.cores} cores)`]),
    `|${'---:|'.repeat(CPU_COLUMNS.length + 3)}`,
    row([
      ...CPU_COLUMNS.map((c) => seconds(c).toFixed(1)),
      `**${stack.toFixed(1)}**`,
      found > 0 ? ((stack * 1000) / found).toFixed(2) : '-',
      `${machine.busySeconds.toFixed(1)} ` +
        `(${((machine.busySeconds / (wallMs / 1000) / Math.max(1, machine.cores)) * 100).toFixed(0)} ` +
        `%)`,
    ]),
  );
}
process.stdout.write(`${lines.join('\n')}\n`);
if (spent !== metadata.credits_charged || metadata.credits_charged !== found) {
  process.stdout.write(`ledger mismatch: spent ${spent}, charged ${metadata.credits_charged}, jobs_found ${found}\n`);
  process.exitCode = 1;
}
