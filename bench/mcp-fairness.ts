/**
 * MCP fairness benchmark: one account's burst of MCP traffic beside another account's API
 * requests, on the running stack. A quiet account sends `GET /v1/account` every
 * BENCH_QUIET_EVERY_MS (25) ms, open loop (it does not wait for the last answer), for
 * BENCH_SECONDS (10) s per phase:
 *
 *   - alone: its quiet p95;
 *   - beside bursts of another account: BENCH_BURST_POSTS (160) POSTs to `/mcp`, each a batch of
 *     BENCH_MCP_BATCH (10) `tools/list` requests, BENCH_BUSY_CLIENTS (16) at a time, one burst
 *     after the other, each burst from a new Pro account (its plan's rate limit, 600 a minute:
 *     60 of the 160 are answered, the rest refused);
 *   - beside BENCH_BUSY_CLIENTS closed-loop clients of one account sending the same batches as
 *     fast as they are answered, its rate limit out of the way (1,000,000 a minute): the worst
 *     case, where its account's line on the gateway (its messages in work and its pace) is all
 *     that holds it;
 *   - for comparison, beside the same closed loop of `GET /v1/account` (no MCP): what any API
 *     request sent as fast as it is answered does to the quiet account on this host.
 *
 * The phases alternate for BENCH_ROUNDS (6) rounds and each phase's rounds are pooled: this
 * host's speed drifts within a minute, and a quiet phase measured long before a loaded one would
 * carry that drift into their ratio. The busy account's clients run in a worker thread, so that
 * reading its answers does not delay the quiet account's in this process's event loop.
 *
 * Per phase: the quiet account's answers and latencies, its p95 over its quiet p95 (the target is
 * at most 2x), each round's p95 and the median round's over the quiet phase's (a round that
 * another process on the host slowed moves the pooled p95, not the median); the busy account's
 * POSTs by status, messages answered per second and the bytes they carried; the gateway's CPU
 * (from /proc).
 *
 *   npm run up                     # in another shell (or any running stack: BASE_URL, ADMIN_URL, STACK_PIDS_FILE)
 *   npm run bench -- mcp-fairness
 */
import { resolve } from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import { processEnv, servicePids, snapshot, stackLocation, usageBetween } from './proc-cpu.js';
import { row } from './search-load.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const seconds = Number(process.env['BENCH_SECONDS'] ?? 10);
const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 6));
const quietEveryMs = Number(process.env['BENCH_QUIET_EVERY_MS'] ?? 25);
const busyClients = Number(process.env['BENCH_BUSY_CLIENTS'] ?? 16);
const batchSize = Number(process.env['BENCH_MCP_BATCH'] ?? 10);
const burstPosts = Number(process.env['BENCH_BURST_POSTS'] ?? 160);
const unlimited = { limit: 1_000_000, window_seconds: 60 };

interface Answer {
  status: number;
  ms: number;
  bytes: number;
}

/**
 * What the worker sends: bursts from new Pro accounts, a closed loop of one unlimited account's
 * batches, or (for comparison) the same closed loop of its `GET /v1/account`.
 */
type Load = 'bursts' | 'closed-loop' | 'api-closed-loop';

async function timed(url: string, init: RequestInit): Promise<Answer> {
  const t = performance.now();
  try {
    const res = await fetch(url, init);
    const bytes = (await res.arrayBuffer()).byteLength;
    return { status: res.status, ms: performance.now() - t, bytes };
  } catch {
    return { status: 0, ms: performance.now() - t, bytes: 0 };
  }
}

const batch = JSON.stringify(
  Array.from({ length: batchSize }, (_, i) => ({ jsonrpc: '2.0', id: i + 1, method: 'tools/list' })),
);
const mcpPost = (key: string): RequestInit => ({
  method: 'POST',
  headers: {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-11-25',
  },
  body: batch,
});

/** `requests` requests (Infinity: until `until`), `busyClients` at a time. */
async function load(url: string, init: RequestInit, requests: number, until: number): Promise<Answer[]> {
  const out: Answer[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: busyClients }, async () => {
      while (sent < requests && performance.now() < until) {
        sent++;
        out.push(await timed(url, init));
      }
    }),
  );
  return out;
}

/** The busy account's traffic for one phase (in the worker thread). */
async function busyTraffic(kind: Load): Promise<Answer[]> {
  const until = performance.now() + seconds * 1000;
  if (kind !== 'bursts') {
    const { liveKey } = await createBenchAccount({ plan: 'pro', credits: 100, rate_limit: unlimited });
    return kind === 'closed-loop'
      ? load(`${baseUrl}/mcp`, mcpPost(liveKey), Infinity, until)
      : load(`${baseUrl}/v1/account`, { headers: { authorization: `Bearer ${liveKey}` } }, Infinity, until);
  }
  const out: Answer[] = [];
  while (performance.now() < until) {
    const { liveKey } = await createBenchAccount({ plan: 'pro', credits: 100 });
    out.push(...(await load(`${baseUrl}/mcp`, mcpPost(liveKey), burstPosts, until)));
  }
  return out;
}

if (!isMainThread) {
  parentPort!.postMessage(await busyTraffic(workerData as Load));
} else {
  await main();
}

function inWorker(kind: Load): Promise<Answer[]> {
  return new Promise((resolvePromise, reject) => {
    const worker = new Worker(new URL(import.meta.url), { workerData: kind });
    worker.once('message', (answers: Answer[]) => resolvePromise(answers));
    worker.once('error', reject);
  });
}

interface Phase {
  name: string;
  quiet: Answer[];
  busy: Answer[];
  seconds: number;
  gatewayCpuSeconds: number;
  /** Each round's quiet p95 (ms). */
  roundP95: number[];
  /** Messages (or API requests) in one busy answer. */
  perAnswer: number;
}

async function main(): Promise<void> {
  const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
  const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
  const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);
  const { liveKey: quietKey } = await createBenchAccount({ plan: 'pro', credits: 100, rate_limit: unlimited });

  /** The quiet account: one `GET /v1/account` every `quietEveryMs`, each awaited on its own. */
  async function quietReads(): Promise<Answer[]> {
    const reads: Array<Promise<Answer>> = [];
    const until = performance.now() + seconds * 1000;
    while (performance.now() < until) {
      reads.push(timed(`${baseUrl}/v1/account`, { headers: { authorization: `Bearer ${quietKey}` } }));
      await new Promise((r) => setTimeout(r, quietEveryMs));
    }
    return Promise.all(reads);
  }

  const phases = new Map<string, Phase>();
  async function phase(name: string, kind: Load | undefined): Promise<void> {
    const before = snapshot(location);
    const started = performance.now();
    const [quiet, busy] = await Promise.all([quietReads(), kind ? inWorker(kind) : Promise.resolve([])]);
    const elapsed = (performance.now() - started) / 1000;
    const gatewayCpuSeconds = usageBetween(before, snapshot(location)).get('gateway')?.seconds ?? 0;
    const pooled = phases.get(name) ?? {
      name,
      quiet: [],
      busy: [],
      seconds: 0,
      gatewayCpuSeconds: 0,
      roundP95: [],
      perAnswer: kind === 'api-closed-loop' ? 1 : batchSize,
    };
    pooled.quiet.push(...quiet);
    pooled.busy.push(...busy);
    pooled.seconds += elapsed;
    pooled.gatewayCpuSeconds += gatewayCpuSeconds;
    pooled.roundP95.push(percentile(sortedMs(quiet), 95));
    phases.set(name, pooled);
    // the busy account's last answers drain before the next phase starts
    await new Promise((r) => setTimeout(r, 1000));
  }

  for (let round = 0; round < rounds; round++) {
    await phase('quiet account alone', undefined);
    await phase(`beside bursts of ${burstPosts} POSTs, ${busyClients} at a time, Pro rate limit`, 'bursts');
    await phase(`beside ${busyClients} closed-loop clients, no rate limit (the line alone)`, 'closed-loop');
    await phase(`for comparison: beside ${busyClients} closed-loop clients of GET /v1/account`, 'api-closed-loop');
  }
  process.stdout.write(report([...phases.values()], gatewayEnv));
  if ([...phases.values()].some((p) => [...p.quiet, ...p.busy].some((a) => a.status === 0 || a.status >= 500)))
    process.exitCode = 1;
}

function report(phases: Phase[], gatewayEnv: Record<string, string>): string {
  const quietP95 = percentile(sortedMs(phases[0]!.quiet), 95);
  // The median round is robust to a round that another process on this host slowed as a whole.
  const medianRound = (p: Phase) =>
    percentile(
      [...p.roundP95].sort((a, b) => a - b),
      50,
    );
  const quietRound = medianRound(phases[0]!);
  const lines = [
    `quiet account: GET /v1/account every ${quietEveryMs} ms; busy account: POSTs to /mcp of a batch of ` +
      `${batchSize} tools/list, from a worker thread; ${rounds} rounds of ${seconds} s per phase, alternating, pooled`,
    `gateway MCP_ACCOUNT_MAX_IN_FLIGHT=${gatewayEnv['MCP_ACCOUNT_MAX_IN_FLIGHT'] ?? 'default'}, ` +
      `MCP_ACCOUNT_MESSAGES_PER_SECOND=${gatewayEnv['MCP_ACCOUNT_MESSAGES_PER_SECOND'] ?? 'default'}, ` +
      `MCP_QUEUE_MAX_WAIT_MS=${gatewayEnv['MCP_QUEUE_MAX_WAIT_MS'] ?? 'default'}`,
    '',
    row([
      'phase',
      'quiet reads',
      'quiet not 200',
      'quiet p50 / p95 / p99 (ms)',
      'p95 / quiet p95',
      'p95 by round (ms)',
      'median round p95 / alone’s',
      'busy POSTs by status',
      'busy messages (requests) answered/s',
      'busy MB/s',
      'gateway CPU %',
    ]),
    '|---|---:|---:|---|---:|---|---:|---|---:|---:|---:|',
  ];
  for (const p of phases) {
    const quiet = sortedMs(p.quiet);
    const answered = p.busy.filter((a) => a.status === 200);
    const megabytes = p.busy.reduce((sum, a) => sum + a.bytes, 0) / 1e6;
    lines.push(
      row([
        p.name,
        p.quiet.length.toLocaleString('en'),
        p.quiet.length - quiet.length,
        [50, 95, 99].map((q) => percentile(quiet, q).toFixed(1)).join(' / '),
        (percentile(quiet, 95) / quietP95).toFixed(2),
        p.roundP95.map((ms) => ms.toFixed(0)).join(', '),
        (medianRound(p) / quietRound).toFixed(2),
        byStatus(p.busy),
        p.busy.length ? ((answered.length * p.perAnswer) / p.seconds).toFixed(0) : '-',
        p.busy.length ? (megabytes / p.seconds).toFixed(1) : '-',
        ((100 * p.gatewayCpuSeconds) / p.seconds).toFixed(0),
      ]),
    );
  }
  return lines.join('\n') + '\n';
}

function sortedMs(answers: Answer[]): number[] {
  return answers
    .filter((a) => a.status === 200)
    .map((a) => a.ms)
    .sort((a, b) => a - b);
}

function byStatus(answers: Answer[]): string {
  const counts = new Map<number, number>();
  for (const { status } of answers) counts.set(status, (counts.get(status) ?? 0) + 1);
  return [...counts].map(([status, n]) => `${n.toLocaleString('en')} x ${status}`).join(', ') || '-';
}
