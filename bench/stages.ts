/**
 * Where a sync search spends its time: N searches, one at a time, each with a sampled W3C
 * `traceparent`, so the stack exports exactly their traces to an OTLP/HTTP receiver run here
 * (`OtlpReceiver` of @jobs/e2e-support, the one the trace e2e test uses). For each trace it
 * walks the critical path, from the gateway's request span to the gateway consuming the answer,
 * and splits it into segments: work inside a service (from the message that woke it to its next
 * publish) and Kafka hops (from publish to the next service's handler start). It also reports
 * each provider call and, per search, its slowest partner's call, how long after that call's end
 * the request ended, and the request's time less that call (all the stack adds: the issue's
 * "slowest provider + 60 ms", per search).
 * Medians and p95 over the searches, in a markdown table.
 *
 * The stack must export traces to this receiver:
 *   STACK_SLOT=1 npm run up             # test-profile stacks export to port 2N095 (http/json)
 *   OTLP_RECEIVER_PORT=21095 BASE_URL=http://127.0.0.1:21080 ADMIN_URL=http://127.0.0.1:21081 npm run bench -- stages
 * or: OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4318 OTEL_EXPORTER_OTLP_PROTOCOL=http/json npm run up
 *   and npm run bench -- stages (port 4318 by default).
 * Options: BENCH_REQUESTS (40), BENCH_LIMIT (20), BENCH_STRATEGY (max_coverage), OTLP_RECEIVER_PORT,
 * BENCH_TRACE_DUMP (a file: every search's spans as JSON lines, times relative to its first span).
 */
import { randomBytes } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { ancestry, OtlpReceiver, rootsOf, type ReceivedSpan } from '@jobs/e2e-support';
import { FILTER_SETS } from './filter-sets.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const receiverPort = Number(process.env['OTLP_RECEIVER_PORT'] ?? 4318);
const searches = Number(process.env['BENCH_REQUESTS'] ?? 40);
const limit = Number(process.env['BENCH_LIMIT'] ?? 20);
const strategy = process.env['BENCH_STRATEGY'] ?? 'max_coverage';
/**
 * Writes every search's spans (service, name, kind, start and end relative to the request) as JSON lines, to look into
 * a hop.
 */
const dumpFile = process.env['BENCH_TRACE_DUMP'];
const CONSUMER = 5;
const PRODUCER = 4;

const receiver = new OtlpReceiver();
await receiver.listen(receiverPort);

const { liveKey: key } = await createBenchAccount({
  plan: 'pro',
  credits: 1_000_000,
  rate_limit: { limit: 1_000_000, window_seconds: 60 },
});

const HALVES = ['search.page.gathered process', 'search.page.charged process'];
const isHalf = (s: ReceivedSpan) => s.service === 'gateway' && s.kind === CONSUMER && HALVES.includes(s.name);
/** The answer is joined when its later half (the page, or billing's outcome) reaches the gateway. */
function answerOf(spans: ReceivedSpan[]): ReceivedSpan | undefined {
  const halves = spans.filter(isHalf);
  if (!HALVES.every((name) => halves.some((s) => s.name === name))) return undefined;
  return halves.reduce((last, s) => (s.startMs > last.startMs ? s : last));
}

/** Waits until the trace is one closed tree containing the answer's consumption. */
async function completeTrace(traceId: string): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const spans = receiver.trace(traceId);
    const roots = rootsOf(spans);
    if (roots.length === 1 && roots[0]!.kind === 2 && answerOf(spans)) return spans;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`trace ${traceId} did not arrive complete: is the stack exporting to port ${receiverPort}?`);
}

interface Segment {
  label: string;
  ms: number;
}

const SLOWEST_CALL = "(per search) its slowest partner's call";
const AFTER_SLOWEST = '(per search) request end after its slowest partner answered';
const OVER_SLOWEST = "(per search) request time less its slowest partner's call";

/** The critical path of one search, as consecutive segments that add up to the request's time. */
function segmentsOf(spans: ReceivedSpan[]): { total: number; segments: Segment[]; perSearch: Segment[] } {
  const answer = answerOf(spans)!;
  const path = ancestry(spans, answer);
  const root = path[0]!;
  const segments: Segment[] = [];
  let cursor = root.startMs;
  let where = `${root.service}: request in → publish`;
  for (const span of path) {
    if (span.kind !== CONSUMER) continue;
    const producer = path[path.indexOf(span) - 1]!;
    if (producer.kind === PRODUCER) {
      segments.push({ label: where, ms: producer.startMs - cursor });
      segments.push({ label: `kafka: ${span.name.replace(/ process$/, '')}`, ms: span.startMs - producer.startMs });
    }
    cursor = span.startMs;
    where = `${span.service}: ${span.name.replace(/ process$/, '')}`;
  }
  segments.push({ label: `${answer.service}: answer → response out`, ms: root.endMs - cursor });
  const calls = spans.filter((s) => s.service === 'provider-fetcher' && s.name.startsWith('provider '));
  const providers = calls.map((s) => ({ label: `(in provider-fetcher) ${s.name}`, ms: s.endMs - s.startMs }));
  // The search's own slowest partner (not always provider_d: each call's latency varies), and
  // what the stack added after its answer: the "slowest provider + 60 ms", per request.
  const slowest = calls.reduce<ReceivedSpan | undefined>(
    (last, call) => (!last || call.endMs > last.endMs ? call : last),
    undefined,
  );
  const afterSlowest = slowest
    ? [
        { label: SLOWEST_CALL, ms: slowest.endMs - slowest.startMs },
        { label: AFTER_SLOWEST, ms: root.endMs - slowest.endMs },
        // before the calls (request in, two hops, the plan) and after: all the stack adds
        { label: OVER_SLOWEST, ms: root.endMs - root.startMs - (slowest.endMs - slowest.startMs) },
      ]
    : [];
  return { total: root.endMs - root.startMs, segments, perSearch: [...afterSlowest, ...providers] };
}

const samples = new Map<string, number[]>();
const add = (label: string, ms: number) => samples.set(label, [...(samples.get(label) ?? []), ms]);
const order: string[] = [];

for (let i = 0; i < searches; i++) {
  const traceId = randomBytes(16).toString('hex');
  const res = await fetch(`${baseUrl}/v1/jobs/search`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
    },
    body: JSON.stringify({ filters: FILTER_SETS[i % FILTER_SETS.length], waterfall: { strategy }, limit }),
  });
  if (res.status !== 200) throw new Error(`search ${i} answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  const spans = await completeTrace(traceId);
  const { total, segments, perSearch } = segmentsOf(spans);
  if (dumpFile) {
    const t0 = Math.min(...spans.map((span) => span.startMs));
    const rows = [...spans]
      .sort((a, b) => a.startMs - b.startMs)
      .map((span) => ({
        service: span.service,
        name: span.name,
        kind: span.kind,
        start: +(span.startMs - t0).toFixed(2),
        end: +(span.endMs - t0).toFixed(2),
      }));
    appendFileSync(dumpFile, JSON.stringify({ search: i, spans: rows }) + '\n');
  }
  add('whole request (gateway server span)', total);
  // The path's shape can vary (which provider's batch completes the wave); labels keep it apart.
  for (const s of [...segments, ...perSearch]) {
    if (!order.includes(s.label)) order.push(s.label);
    add(s.label, s.ms);
  }
}
await receiver.close();

for (const values of samples.values()) values.sort((a, b) => a - b);
const totalP50 = percentile(samples.get('whole request (gateway server span)')!, 50);
const fmt = (n: number) => n.toFixed(1);
console.log(
  `\nSync search, ${strategy}, limit ${limit}, Pro plan: ` +
    `${searches} searches one at a time; critical path from the ` +
    `traces\n`,
);
console.log('| segment | seen in | p50 ms | p95 ms | p50 share |');
console.log('|---|---:|---:|---:|---:|');
for (const label of ['whole request (gateway server span)', ...order]) {
  const values = samples.get(label)!;
  const share =
    label.startsWith('(') || label.startsWith('whole')
      ? ''
      : `${((percentile(values, 50) / totalP50) * 100).toFixed(0)}%`;
  console.log(
    `| ${label} | ${values.length}/${searches} | ` +
      `${fmt(percentile(values, 50))} | ` +
      `${fmt(percentile(values, 95))} | ${share} |`,
  );
}
