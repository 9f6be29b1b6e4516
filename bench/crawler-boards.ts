/**
 * bench:crawler-boards: the own crawler's boards at scale. The simulator publishes a board for
 * each of its first WORLD_BOARDS companies (decision 0044); this registers every one of them
 * (PUT /admin/crawler/boards, base_url at the simulator), stops the market's clock, then runs
 * refresh passes back to back: the first read (every board new), `--passes` passes where no board
 * changed (each read a conditional GET answered 304), and `--passes` passes each after
 * `--advance-minutes` (60) of market time (the clock run fast for a moment: openings opened,
 * changed and closed on many boards; one interval of a live market is one minute). Per pass it
 * prints its wall time, the board reads by outcome (the fetcher's `crawler_board_reads_total`) and
 * each process's CPU from /proc, and per board read the CPU of the fetcher, dedupe, PostgreSQL and
 * the whole stack. The partners' passes run in the same passes (their new listings), so a pass's
 * CPU is a board read's upper bound. Each row is printed as its pass ends; a pass that does not end
 * within `--pass-timeout-s` (600) is reported as such and ends the run.
 *
 * Environment: STACK_PIDS_FILE (default `.local/run/dev/pids.json`), BASE_URL, ADMIN_URL,
 * ADMIN_TOKEN, PROVIDER_SIM_URL; the stack started with WORLD_BOARDS (see bench/README.md).
 */
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { admin, parsePrometheusText, refreshPass, simControl, sumOf } from '@jobs/e2e-support';
import { GROUP, SHORT_COLUMN_NAMES, snapshot, stackOf, usageBetween } from './proc-cpu.js';

const { values } = parseArgs({
  options: {
    passes: { type: 'string', default: '3' },
    concurrency: { type: 'string', default: '16' },
    'advance-minutes': { type: 'string', default: '60' },
    'pass-timeout-s': { type: 'string', default: '600' },
  },
});
const advanceMs = Number(values['advance-minutes']) * 60_000;
const passTimeoutMs = Number(values['pass-timeout-s']) * 1000;
const advanceLabel =
  advanceMs % 86_400_000 === 0
    ? `${advanceMs / 86_400_000} market day(s) later`
    : advanceMs % 3_600_000 === 0
      ? `${advanceMs / 3_600_000} market hour(s) later`
      : `${advanceMs / 60_000} market minute(s) later`;
const passes = Number(values.passes);
const concurrency = Number(values.concurrency);
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const { env: dedupeEnv, location } = stackOf(pidsFile, 'dedupe');
const fetcherEnv = stackOf(pidsFile, 'provider-fetcher').env;
const intervalMs = Number(dedupeEnv['REFRESH_INTERVAL_MS'] ?? 60_000);
const sim = process.env['PROVIDER_SIM_URL'] ?? dedupeEnv['PROVIDER_SIM_URL'] ?? 'http://127.0.0.1:8090';
const fetcherMetrics = `http://127.0.0.1:${fetcherEnv['HEALTH_PORT']}/metrics`;

const COLUMNS = ['provider-fetcher', 'dedupe', GROUP.pgBackends, GROUP.kafka, 'provider-sim'] as const;
const STACK = ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher'];
const OUTCOMES = ['changed', 'unchanged', 'error', 'breaker_open'] as const;

interface WorldBoard {
  ats: 'greenhouse' | 'lever' | 'ashby';
  board: string;
  company_domain: string;
}

/** Runs `work` over `items`, `concurrency` at a time. */
async function pool<T>(items: readonly T[], work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

const BOARD_PATHS = {
  greenhouse: (b: string) => `/greenhouse/v1/boards/${b}/jobs?content=true`,
  lever: (b: string) => `/lever/v0/postings/${b}?mode=json`,
  ashby: (b: string) => `/ashby/posting-api/job-board/${b}?includeCompensation=true`,
};

/** How many openings a board lists now, read from the simulator as the crawler reads it. */
async function openingsOf(board: WorldBoard): Promise<number> {
  const body = (await (await fetch(`${sim}${BOARD_PATHS[board.ats](board.board)}`)).json()) as
    unknown[] | { jobs: unknown[] };
  return Array.isArray(body) ? body.length : body.jobs.length;
}

async function boardReads(): Promise<Record<(typeof OUTCOMES)[number], number>> {
  const exposition = parsePrometheusText(await (await fetch(fetcherMetrics)).text());
  return Object.fromEntries(
    OUTCOMES.map((outcome) => [outcome, sumOf(exposition, 'crawler_board_reads_total', { outcome })]),
  ) as Record<(typeof OUTCOMES)[number], number>;
}

/** The market's clock moves `worldMs` on (run fast for a moment), then stands still again. */
async function advanceMarket(worldMs: number): Promise<void> {
  const speed = 86_400;
  await simControl('PUT', '/world/clock', { speed });
  await new Promise((r) => setTimeout(r, worldMs / speed));
  await simControl('PUT', '/world/clock', { speed: 0 });
}

interface PassRow {
  label: string;
  wallS: number;
  /** The pass did not end within its timeout: the row is what it had done by then. */
  unfinished: boolean;
  reads: Record<(typeof OUTCOMES)[number], number>;
  cpu: Record<string, number>;
  stackS: number;
}

/** A cold store takes in every board's openings in its first pass: minutes, not an interval. */
const FIRST_READ_TIMEOUT_MS = 3_600_000;

async function measuredPass(label: string, timeoutMs = passTimeoutMs): Promise<PassRow> {
  const [before, readsBefore] = [snapshot(location), await boardReads()];
  const started = Date.now();
  const unfinished = await refreshPass(timeoutMs).then(
    () => false,
    (error: unknown) => {
      process.stderr.write(`[bench:crawler-boards] ${label}: ${String(error)}\n`);
      return true;
    },
  );
  const wallS = (Date.now() - started) / 1000;
  const usage = usageBetween(before, snapshot(location));
  const readsAfter = await boardReads();
  const reads = Object.fromEntries(OUTCOMES.map((o) => [o, readsAfter[o] - readsBefore[o]])) as PassRow['reads'];
  const cpu = Object.fromEntries(COLUMNS.map((c) => [c, usage.get(c)?.seconds ?? 0]));
  const stackS = [...STACK, GROUP.kafka, GROUP.pgBackends].reduce((a, c) => a + (usage.get(c)?.seconds ?? 0), 0);
  process.stderr.write(`[bench:crawler-boards] ${label}: ${wallS.toFixed(1)} s, ${JSON.stringify(reads)}\n`);
  const row = { label, wallS, reads, cpu, stackS, unfinished };
  printRow(row);
  return row;
}

const ms = (seconds: number, n: number) => (n > 0 ? ((1000 * seconds) / n).toFixed(2) : '-');

function printHeader(): void {
  const header = [
    'pass',
    'wall s',
    'reads changed / unchanged / failed',
    ...COLUMNS.map((c) => `${SHORT_COLUMN_NAMES[c] ?? c} CPU-s`),
    'stack CPU-s',
    'fetcher ms/read',
    'dedupe ms/read',
    'stack ms/read',
  ];
  console.log(`| ${header.join(' | ')} |\n|${header.map((_, i) => (i < 3 ? '---' : '---:')).join('|')}|`);
}

function printRow(r: PassRow): void {
  const n = OUTCOMES.reduce((a, o) => a + r.reads[o], 0);
  console.log(
    `| ${r.label} | ${r.unfinished ? 'over ' : ''}${r.wallS.toFixed(1)} | ${r.reads.changed} / ${r.reads.unchanged} / ` +
      `${r.reads.error + r.reads.breaker_open} | ${COLUMNS.map((c) => r.cpu[c]!.toFixed(2)).join(' | ')} | ` +
      `${r.stackS.toFixed(2)} | ${ms(r.cpu['provider-fetcher']!, n)} | ${ms(r.cpu['dedupe']!, n)} | ${ms(r.stackS, n)} |`,
  );
}

const boards = ((await admin('GET', '/world/boards'))!['data'] as WorldBoard[]) ?? [];
if (boards.length === 0) throw new Error('the simulator publishes no board: start the stack with WORLD_BOARDS=2000');
await simControl('PUT', '/world/clock', { speed: 0 });
let openings = 0;
await pool(boards, async (b) => {
  const n = await openingsOf(b);
  openings += n;
});
const registeredAt = Date.now();
await pool(boards, async (b) => {
  await admin('PUT', `/crawler/boards/${b.ats}/${b.board}`, {
    company_domain: b.company_domain,
    base_url: `${sim}/${b.ats}`,
  });
});
process.stderr.write(
  `[bench:crawler-boards] ${boards.length} boards, ${openings} openings registered in ${Date.now() - registeredAt} ms\n`,
);

printHeader();
const passesInOrder: Array<() => Promise<PassRow>> = [
  () => measuredPass('first read', FIRST_READ_TIMEOUT_MS),
  ...Array.from({ length: passes }, () => () => measuredPass('no board changed')),
  ...Array.from({ length: passes }, () => async () => {
    await advanceMarket(advanceMs);
    return measuredPass(advanceLabel);
  }),
];
for (const pass of passesInOrder) {
  if ((await pass()).unfinished) break;
}
const listed = (await admin('GET', '/crawler/boards'))!['data'] as { open_jobs: number; last_error: string | null }[];
console.log(
  `\n${boards.length} boards (${['greenhouse', 'lever', 'ashby'].map((a) => `${boards.filter((b) => b.ats === a).length} ${a}`).join(', ')}), ` +
    `${openings} openings on them; after the last pass the boards keep ` +
    `${listed.reduce((a, b) => a + b.open_jobs, 0)} open jobs, ${listed.filter((b) => b.last_error).length} boards with an error. ` +
    `REFRESH_INTERVAL_MS ${intervalMs}.`,
);
await simControl('PUT', '/world/clock', { speed: 1 });
