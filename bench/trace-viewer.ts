/**
 * What the trace viewer holds and costs, on a running stack as `npm run up` starts it:
 *
 *   npm run up                          # the viewer on: requests recorded, 1 % of the background
 *   npm run bench -- trace-viewer
 *
 * 1. Idle: `BENCH_IDLE_SECONDS` (60) with nothing asked: the spans the viewer takes in a minute
 *    (the background's sampled traces), its CPU and memory, and the services' CPU.
 * 2. The first search: one `max_coverage` search over every provider, as a customer sends it;
 *    its trace read back by the trace id of its `traceparent` answer header: spans in all and by
 *    service, and the stages it shows.
 * 3. Other searches: `BENCH_SEARCHES` (1,000) sync searches (`max_coverage`, limit 5, varied
 *    titles), `BENCH_CONCURRENCY` (4) at a time: CPU per search of each process (/proc) and of the
 *    viewer, spans the viewer took in per search, latency.
 * 4. Retention: `BENCH_RETENTION_MINUTES` (60) more idle minutes, then the first search's trace
 *    is looked up again by its trace id and by its request id (the tag `jobs.request_id`).
 *
 * Run it again with `TRACE_VIEWER=0 npm run up` for the services' CPU per search with nothing
 * exported. Options: BENCH_IDLE_SECONDS, BENCH_SEARCHES, BENCH_CONCURRENCY,
 * BENCH_RETENTION_MINUTES, TRACE_VIEWER_URL (http://127.0.0.1:9411), STACK_PIDS_FILE
 * (.local/run/dev/pids.json).
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  GROUP,
  processCpuMs,
  processEnv,
  servicePids,
  snapshot,
  STACK_SERVICES,
  stackLocation,
  usageBetween,
  viewerPidOf,
} from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const idleSeconds = Number(process.env['BENCH_IDLE_SECONDS'] ?? 60);
const searches = Number(process.env['BENCH_SEARCHES'] ?? 1000);
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 4);
const retentionMinutes = Number(process.env['BENCH_RETENTION_MINUTES'] ?? 60);
const viewerUrl = process.env['TRACE_VIEWER_URL'] ?? 'http://127.0.0.1:9411';

const log = (message: string) =>
  process.stderr.write(`[bench:trace-viewer ${new Date().toISOString().slice(11, 19)}] ${message}\n`);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayEnv = processEnv(servicePids(pidsFile)['gateway']!);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);
const exporting = gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT']
  ? `Zipkin at ${gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT']}`
  : 'no trace viewer';
const sampler =
  gatewayEnv['OTEL_TRACES_SAMPLER'] ??
  (gatewayEnv['OTEL_EXPORTER_ZIPKIN_ENDPOINT'] || gatewayEnv['OTEL_EXPORTER_OTLP_ENDPOINT']
    ? `requests kept, background ${gatewayEnv['TRACES_BACKGROUND_RATIO'] ?? '0.01'}`
    : 'parentbased_always_off');

const viewerPid = () => viewerPidOf(pidsFile);
const rssMb = (pid: number | undefined) =>
  pid === undefined ? 0 : Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
const viewerMs = () => {
  const pid = viewerPid();
  return pid === undefined ? 0 : processCpuMs(pid)!;
};
/** Spans the viewer took in since it started (its own Prometheus counter). */
async function viewerSpans(): Promise<number> {
  const text = await fetch(`${viewerUrl}/prometheus`).then(
    (res) => res.text(),
    () => '',
  );
  return [...text.matchAll(/^zipkin_collector_spans_total\{[^}]*\} ([\d.eE+]+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

interface ZipkinSpan {
  name: string;
  localEndpoint?: { serviceName?: string };
  tags?: Record<string, string>;
}
async function traceById(traceId: string): Promise<ZipkinSpan[]> {
  const res = await fetch(`${viewerUrl}/api/v2/trace/${traceId}`);
  return res.status === 200 ? ((await res.json()) as ZipkinSpan[]) : [];
}
async function tracesByRequestId(requestId: string): Promise<ZipkinSpan[][]> {
  const query = new URLSearchParams({
    annotationQuery: `jobs.request_id=${requestId}`,
    lookback: String(24 * 3_600_000),
    limit: '10',
  });
  const res = await fetch(`${viewerUrl}/api/v2/traces?${query}`);
  return res.status === 200 ? ((await res.json()) as ZipkinSpan[][]) : [];
}

const SERVICES = [...STACK_SERVICES, 'provider-sim'];
const { liveKey } = await createBenchAccount({
  plan: 'pro',
  credits: 10_000_000,
  rate_limit: { limit: 10_000_000, window_seconds: 60 },
});
const TITLES = ['engineer', 'designer', 'manager', 'analyst', 'nurse', 'sales', 'developer', 'accountant'];
interface Answer {
  ms: number;
  traceId: string;
  requestId: string;
}
async function search(i: number, providers?: string[]): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: { authorization: `Bearer ${liveKey}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      filters: { title_or: [TITLES[i % TITLES.length]] },
      waterfall: { strategy: 'max_coverage', ...(providers ? { providers } : {}) },
      limit: 5,
    }),
  });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`search answered ${res.status}`);
  return {
    ms: performance.now() - started,
    traceId: res.headers.get('traceparent')?.split('-')[1] ?? '',
    requestId: res.headers.get('x-request-id') ?? '',
  };
}

// ---------------------------------------------------------------- idle
log(`idle ${idleSeconds} s ...`);
const idleBefore = { stack: snapshot(location), viewer: viewerMs(), spans: await viewerSpans() };
await sleep(idleSeconds * 1000);
const idle = usageBetween(idleBefore.stack, snapshot(location));
const idleViewerCore = (viewerMs() - idleBefore.viewer) / 10 / idleSeconds;
const idleSpansPerMinute = ((await viewerSpans()) - idleBefore.spans) / (idleSeconds / 60);
const idleStackCore = (100 * SERVICES.reduce((sum, s) => sum + (idle.get(s)?.seconds ?? 0), 0)) / idleSeconds;
const idleRss = rssMb(viewerPid());

// ---------------------------------------------------------------- the first search
const first = await search(0);
await sleep(3000); // the services export every 500 ms; the webhook and billing stages end after the answer
const firstTrace = await traceById(first.traceId);
const byService = new Map<string, number>();
for (const span of firstTrace) {
  const service = span.localEndpoint?.serviceName ?? '?';
  byService.set(service, (byService.get(service) ?? 0) + 1);
}
const byName = new Map<string, number>();
for (const span of firstTrace) byName.set(span.name, (byName.get(span.name) ?? 0) + 1);
log(
  `first search ${first.requestId}: trace ${first.traceId}, ${firstTrace.length} spans: ` +
    [...byName].map(([name, n]) => `${name} ${n}`).join(', '),
);

// ---------------------------------------------------------------- other searches
log(`${searches} searches, ${concurrency} at a time ...`);
const before = { stack: snapshot(location), viewer: viewerMs(), spans: await viewerSpans() };
const latencies: number[] = [];
let next = 1;
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next <= searches) latencies.push((await search(next++)).ms);
  }),
);
const usage = usageBetween(before.stack, snapshot(location));
const searchViewerMs = (viewerMs() - before.viewer) / searches;
await sleep(3000);
const spansPerSearch = ((await viewerSpans()) - before.spans) / searches;
latencies.sort((a, b) => a - b);
const per = (group: string) => ((usage.get(group)?.seconds ?? 0) * 1000) / searches;

// ---------------------------------------------------------------- retention
log(`idle ${retentionMinutes} min, then the first search's trace again ...`);
const idleSpansBefore = await viewerSpans();
await sleep(retentionMinutes * 60_000);
const retentionIdleSpans = (await viewerSpans()) - idleSpansBefore;
const again = await traceById(first.traceId);
const byRequestId = await tracesByRequestId(first.requestId);

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const services = SERVICES.reduce((sum, s) => sum + per(s), 0);
process.stdout.write(
  [
    `stack ${pidsFile}: ${exporting}, sampler ${sampler}`,
    '',
    row(['measure', 'figure']),
    '|---|---|',
    row([
      `idle (${idleSeconds} s)`,
      `${idleSpansPerMinute.toFixed(0)} spans a minute into the viewer; viewer ${idleViewerCore.toFixed(2)} % of a ` +
        `core, RSS ${idleRss.toFixed(0)} MB; the services ${idleStackCore.toFixed(2)} % of a core`,
    ]),
    row([
      "a `max_coverage` search's trace (every provider)",
      `${firstTrace.length} spans: ` +
        [...byService]
          .sort((a, b) => b[1] - a[1])
          .map(([s, n]) => `${s} ${n}`)
          .join(', '),
    ]),
    row([
      `${searches} searches, ${concurrency} at a time`,
      `${spansPerSearch.toFixed(1)} spans each into the viewer; viewer ${searchViewerMs.toFixed(2)} CPU-ms each; ` +
        `services ${services.toFixed(2)} CPU-ms each (PostgreSQL backends ${per(GROUP.pgBackends).toFixed(2)}, ` +
        `Kafka ${per(GROUP.kafka).toFixed(2)}); p50 ${percentile(latencies, 50).toFixed(0)} ms, ` +
        `p95 ${percentile(latencies, 95).toFixed(0)} ms`,
    ]),
    row([
      `after them and ${retentionMinutes} idle min (${retentionIdleSpans} background spans)`,
      `the first trace by id: ${again.length ? `found, ${again.length} spans` : 'GONE'}; ` +
        `by request id: ${byRequestId.length ? `found (${byRequestId.length} trace)` : 'GONE'}`,
    ]),
    row(['viewer memory after', `RSS ${rssMb(viewerPid()).toFixed(0)} MB`]),
    '',
    'CPU-ms per search by process: ' + SERVICES.map((s) => `${s} ${per(s).toFixed(2)}`).join(', '),
  ].join('\n') + '\n',
);
