/**
 * What the trace viewer costs, and what recording and exporting traces costs the request path, on
 * a running stack:
 *
 *   npm run up                          # the viewer on: every search recorded and exported
 *   npm run bench -- trace-viewer
 *
 * 1. Idle: `BENCH_IDLE_SECONDS` (30) with nothing asked: the viewer's CPU and memory (RSS), and the
 *    stack's CPU.
 * 2. Searches: sync searches (max_coverage over own_index and provider_a, so each trace crosses
 *    every service and the simulator; limit 5), `BENCH_CONCURRENCY` (4) at a time, after 10
 *    unmeasured, in `BENCH_ROUNDS` (4) pairs of rounds of `BENCH_SEARCHES` (50): one round
 *    recorded (a sampled `traceparent`, `-01`), the next not (`-00`: the public API's sampler
 *    follows the caller's flag, so the spans are non-recording and nothing is exported, as with
 *    the viewer off). Alternating on one stack keeps this host's drift (other work on its two
 *    cores) out of the difference. Per kind, pooled: CPU-ms per search of each process (/proc),
 *    the viewer included, and latency; then the viewer's RSS and the spans it took in per search.
 *
 * A stack without the viewer (`TRACE_VIEWER=0 npm run up`) records the `-01` rounds without
 * exporting them. Options: BENCH_IDLE_SECONDS, BENCH_SEARCHES, BENCH_ROUNDS, BENCH_CONCURRENCY,
 * TRACE_VIEWER_URL (http://127.0.0.1:9411), STACK_PIDS_FILE (.local/run/dev/pids.json).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import {
  GROUP,
  processCpuMs,
  processEnv,
  servicePids,
  snapshot,
  STACK_SERVICES,
  stackLocation,
  usageBetween,
} from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const idleSeconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? 30);
const searches = Number(process.env['BENCH_SEARCHES'] ?? 50);
const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 4));
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
const viewerUrl = process.env['TRACE_VIEWER_URL'] ?? 'http://127.0.0.1:9411';

const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);
const exporting = gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT']
  ? `Zipkin at ${gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT']}`
  : 'no trace viewer';
const sampler =
  gatewayEnv['OTEL_TRACES_SAMPLER'] ??
  (gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT'] || gatewayEnv['OTEL_EXPORTER_OTLP_ENDPOINT']
    ? 'parentbased_always_on'
    : 'parentbased_always_off');

/** The viewer's JVM, by the pid file deploy/zipkin/zipkin.sh writes for the stack's instance. */
const viewerPid = (() => {
  const root = dirname(dirname(dirname(dirname(pidsFile))));
  try {
    const pid = Number(
      readFileSync(join(root, '.local', 'zipkin', basename(dirname(pidsFile)), 'zipkin.pid'), 'utf8').trim(),
    );
    return Number.isInteger(pid) && processCpuMs(pid) !== undefined ? pid : undefined;
  } catch {
    return undefined;
  }
})();
const rssMb = (pid: number) =>
  Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
async function viewerSpans(): Promise<number | undefined> {
  if (viewerPid === undefined) return undefined;
  const text = await (await fetch(`${viewerUrl}/prometheus`)).text();
  return [...text.matchAll(/^zipkin_collector_spans_total\{[^}]*\} ([\d.eE+]+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}
const viewerMs = () => (viewerPid === undefined ? 0 : processCpuMs(viewerPid)!);

const SERVICES = [...STACK_SERVICES, 'provider-sim'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- idle
const idleBefore = { stack: snapshot(location), viewer: viewerMs() };
await sleep(idleSeconds * 1000);
const idle = usageBetween(idleBefore.stack, snapshot(location));
const idleViewerCore = (viewerMs() - idleBefore.viewer) / 10 / idleSeconds;
const idleStackCore = (100 * SERVICES.reduce((sum, s) => sum + (idle.get(s)?.seconds ?? 0), 0)) / idleSeconds;
const idleRss = viewerPid === undefined ? undefined : rssMb(viewerPid);

// ---------------------------------------------------------------- searches
const { liveKey } = await createBenchAccount({
  plan: 'pro',
  credits: 10_000_000,
  rate_limit: { limit: 10_000_000, window_seconds: 60 },
});
const TITLES = ['engineer', 'designer', 'manager', 'analyst', 'nurse', 'sales', 'developer', 'accountant'];
async function search(i: number, recorded: boolean): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${liveKey}`,
      'content-type': 'application/json',
      traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-${recorded ? '01' : '00'}`,
    },
    body: JSON.stringify({
      filters: { title_or: [TITLES[i % TITLES.length]] },
      waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
      limit: 5,
    }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  return performance.now() - started;
}

interface Round {
  cpuMs: Map<string, number>;
  viewerMs: number;
  latencies: number[];
  spans: number;
}
/**
 * One round of `searches`, `concurrency` at a time; its CPU per process, from before its first to after its last
 * answer.
 */
async function round(recorded: boolean): Promise<Round> {
  // The last round's spans leave the services' export batches (every 500 ms) before this one.
  await sleep(2000);
  const spansBefore = (await viewerSpans()) ?? 0;
  const before = { stack: snapshot(location), viewer: viewerMs() };
  const latencies: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < searches) latencies.push(await search(next++, recorded));
    }),
  );
  const usage = usageBetween(before.stack, snapshot(location));
  const viewer = viewerMs() - before.viewer;
  await sleep(1500);
  const spans = ((await viewerSpans()) ?? 0) - spansBefore;
  return {
    cpuMs: new Map([...usage].map(([group, u]) => [group, u.seconds * 1000])),
    viewerMs: viewer,
    latencies,
    spans,
  };
}
for (let i = 0; i < 10; i++) await search(i, true);
const results = { recorded: [] as Round[], unrecorded: [] as Round[] };
for (let r = 0; r < rounds; r++) {
  results.recorded.push(await round(true));
  results.unrecorded.push(await round(false));
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
function line(label: string, kind: Round[]): string {
  const n = kind.reduce((sum, r) => sum + r.latencies.length, 0);
  const per = (group: string) => kind.reduce((sum, r) => sum + (r.cpuMs.get(group) ?? 0), 0) / n;
  const latencies = kind.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const services = SERVICES.reduce((sum, s) => sum + per(s), 0);
  const viewer = kind.reduce((sum, r) => sum + r.viewerMs, 0) / n;
  const spans = kind.reduce((sum, r) => sum + r.spans, 0) / n;
  return row([
    label,
    n,
    ...SERVICES.map((s) => per(s).toFixed(2)),
    services.toFixed(2),
    per(GROUP.pgBackends).toFixed(2),
    per(GROUP.kafka).toFixed(2),
    viewerPid === undefined ? '-' : viewer.toFixed(2),
    viewerPid === undefined ? '-' : spans.toFixed(0),
    percentile(latencies, 50).toFixed(0),
    percentile(latencies, 95).toFixed(0),
  ]);
}
const idleViewer =
  viewerPid === undefined ? 'not running' : `${idleViewerCore.toFixed(2)} % of a core, RSS ${idleRss!.toFixed(0)} MB`;
process.stdout.write(
  [
    `stack ${pidsFile}: ${exporting}, sampler ${sampler}`,
    '',
    `idle ${idleSeconds} s: viewer ` + `${idleViewer}; ` + `the seven services ${idleStackCore.toFixed(2)} % of a core`,
    '',
    `sync searches, ${concurrency} at a time, ${rounds} pairs of ` +
      `rounds of ${searches}, alternating; CPU ms per search ` +
      `(/proc), latency ms`,
    '',
    row(['searches', 'n', ...SERVICES, 'services', 'PostgreSQL backends', 'Kafka', 'viewer', 'spans in', 'p50', 'p95']),
    `|---|${'---:|'.repeat(SERVICES.length + 8)}`,
    line('recorded (-01)', results.recorded),
    line('not recorded (-00)', results.unrecorded),
    '',
    viewerPid === undefined ? 'viewer: not running' : `viewer after: RSS ${rssMb(viewerPid).toFixed(0)} MB`,
  ].join('\n') + '\n',
);
