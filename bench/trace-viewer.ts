/**
 * What the trace viewer costs, and what recording and exporting traces costs the request path, on
 * a running stack. Run it against a stack with the viewer on and again with it off, and compare:
 *
 *   npm run up                          # the viewer on: every search recorded and exported
 *   npm run bench:trace-viewer
 *   TRACE_VIEWER=0 npm run up           # off: nothing recorded (parent-based, always off)
 *   npm run bench:trace-viewer
 *
 * 1. Idle: `BENCH_IDLE_SECONDS` (30) with nothing asked: the viewer's CPU and memory (RSS), and the
 *    stack's CPU.
 * 2. Searches: `BENCH_SEARCHES` (200) sync searches (max_coverage over own_index and provider_a, so
 *    each trace crosses every service and the simulator; limit 5), `BENCH_CONCURRENCY` (4) at a
 *    time, after 10 unmeasured: CPU-ms per search of each process (/proc), the viewer included,
 *    latency, the viewer's RSS after and the spans it took in (its own /prometheus).
 *
 * Options: BENCH_IDLE_SECONDS, BENCH_SEARCHES, BENCH_CONCURRENCY, BENCH_SAMPLED=1 (each search
 * sends a sampled `traceparent`: a test stack records only those), TRACE_VIEWER_URL
 * (http://127.0.0.1:9411), STACK_PIDS_FILE (.local/run/dev/pids.json).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { GROUP, processCpuMs, processEnv, servicePids, snapshot, stackLocation, usageBetween } from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const idleSeconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? 30);
const searches = Number(process.env['BENCH_SEARCHES'] ?? 200);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
const sampled = process.env['BENCH_SAMPLED'] === '1';
const viewerUrl = process.env['TRACE_VIEWER_URL'] ?? 'http://127.0.0.1:9411';

const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);
const exporting = gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT'] ? `Zipkin at ${gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT']}` : 'no trace viewer';
const sampler = gatewayEnv['OTEL_TRACES_SAMPLER'] ?? (gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT'] || gatewayEnv['OTEL_EXPORTER_OTLP_ENDPOINT'] ? 'parentbased_always_on' : 'parentbased_always_off');

/** The viewer's JVM, by the pid file deploy/zipkin/zipkin.sh writes for the stack's instance. */
const viewerPid = (() => {
  const root = dirname(dirname(dirname(dirname(pidsFile))));
  try {
    const pid = Number(readFileSync(join(root, '.local', 'zipkin', basename(dirname(pidsFile)), 'zipkin.pid'), 'utf8').trim());
    return Number.isInteger(pid) && processCpuMs(pid) !== undefined ? pid : undefined;
  } catch {
    return undefined;
  }
})();
const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
async function viewerSpans(): Promise<number | undefined> {
  if (viewerPid === undefined) return undefined;
  const text = await (await fetch(`${viewerUrl}/prometheus`)).text();
  return [...text.matchAll(/^zipkin_collector_spans_total\{[^}]*\} ([\d.eE+]+)$/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}
const viewerMs = () => (viewerPid === undefined ? 0 : processCpuMs(viewerPid)!);

const SERVICES = ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher', 'provider-sim'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------- idle
const idleBefore = { stack: snapshot(location), viewer: viewerMs() };
await sleep(idleSeconds * 1000);
const idle = usageBetween(idleBefore.stack, snapshot(location));
const idleViewerCore = (viewerMs() - idleBefore.viewer) / 10 / idleSeconds;
const idleStackCore = (100 * SERVICES.reduce((sum, s) => sum + (idle.get(s)?.seconds ?? 0), 0)) / idleSeconds;
const idleRss = viewerPid === undefined ? undefined : rssMb(viewerPid);

// ---------------------------------------------------------------- searches
const { liveKey } = await createBenchAccount({ plan: 'pro', credits: 10_000_000, rate_limit: { limit: 10_000_000, window_seconds: 60 } });
const TITLES = ['engineer', 'designer', 'manager', 'analyst', 'nurse', 'sales', 'developer', 'accountant'];
async function search(i: number): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${liveKey}`,
      'content-type': 'application/json',
      ...(sampled ? { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-01` } : {}),
    },
    body: JSON.stringify({ filters: { title_or: [TITLES[i % TITLES.length]] }, waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] }, limit: 5 }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  return performance.now() - started;
}
for (let i = 0; i < 10; i++) await search(i);
// The warm-up's last spans leave the services' export batches (every 500 ms) before the window.
await sleep(2000);
const spansBefore = await viewerSpans();
const before = { stack: snapshot(location), viewer: viewerMs(), at: performance.now() };
const latencies: number[] = [];
let next = 0;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < searches) latencies.push(await search(next++));
  }),
);
const wall = (performance.now() - before.at) / 1000;
const usage = usageBetween(before.stack, snapshot(location));
const searchViewerMs = (viewerMs() - before.viewer) / searches;
await sleep(2000);
const spansAfter = await viewerSpans();
latencies.sort((a, b) => a - b);

const perSearch = (group: string) => ((usage.get(group)?.seconds ?? 0) * 1000) / searches;
const servicesMs = SERVICES.reduce((sum, s) => sum + perSearch(s), 0);
const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
process.stdout.write(
  [
    `stack ${pidsFile}: ${exporting}, sampler ${sampler}${sampled ? ', each search with a sampled traceparent' : ''}`,
    '',
    `idle ${idleSeconds} s: viewer ${viewerPid === undefined ? 'not running' : `${idleViewerCore.toFixed(2)} % of a core, RSS ${idleRss!.toFixed(0)} MB`}; the seven services ${idleStackCore.toFixed(2)} % of a core`,
    '',
    `${searches} sync searches, ${concurrency} at a time, ${wall.toFixed(1)} s: p50 ${percentile(latencies, 50).toFixed(0)} ms, p95 ${percentile(latencies, 95).toFixed(0)} ms`,
    '',
    row(['CPU ms per search', ...SERVICES, 'services', 'PostgreSQL backends', 'Kafka', 'viewer']),
    `|---|${'---:|'.repeat(SERVICES.length + 4)}`,
    row(['', ...SERVICES.map((s) => perSearch(s).toFixed(2)), servicesMs.toFixed(2), perSearch(GROUP.pgBackends).toFixed(2), perSearch(GROUP.kafka).toFixed(2), viewerPid === undefined ? '-' : searchViewerMs.toFixed(2)]),
    '',
    viewerPid === undefined ? 'viewer: not running' : `viewer after: RSS ${rssMb(viewerPid).toFixed(0)} MB; ${(((spansAfter ?? 0) - (spansBefore ?? 0)) / searches).toFixed(0)} spans taken in per search`,
  ].join('\n') + '\n',
);
