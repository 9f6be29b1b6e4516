/**
 * What bench:overload and bench:fairness share: a sync search client, clients that retry or
 * not, and a row of figures per group of outcomes (statuses, refused share, latencies, CPU).
 */
import { FILTER_SETS } from './filter-sets.js';
import { GROUP, type Snapshot, snapshot, type StackLocation, usageBetween } from './proc-cpu.js';
import { baseUrl, percentile } from './stack.js';

export interface Outcome {
  status: number;
  /** From sending the first attempt to the final answer. */
  ms: number;
  retryAfter: string | null;
  attempts: number;
}

export interface SearchShape {
  strategy: string;
  limit: number;
  timeoutMs?: number;
}

let sent = 0;
/** One search, no retry; status 0 when the connection failed. */
export async function searchOnce(key: string, shape: SearchShape, gateway = baseUrl): Promise<Outcome> {
  const i = sent++;
  const waterfall = {
    ...(shape.strategy === 'default' ? {} : { strategy: shape.strategy }),
    ...(shape.timeoutMs ? { timeout_ms: shape.timeoutMs } : {}),
  };
  const body = { filters: FILTER_SETS[i % FILTER_SETS.length]!, waterfall, limit: shape.limit };
  const t = performance.now();
  try {
    const res = await fetch(`${gateway}/v1/jobs/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    await res.arrayBuffer();
    return { status: res.status, ms: performance.now() - t, retryAfter: res.headers.get('retry-after'), attempts: 1 };
  } catch {
    return { status: 0, ms: performance.now() - t, retryAfter: null, attempts: 1 };
  }
}

/** One search that, when refused, waits its Retry-After and tries again until `until`. */
export async function searchWithRetries(key: string, shape: SearchShape, until: number): Promise<Outcome> {
  const t = performance.now();
  let attempts = 0;
  for (;;) {
    const outcome = await searchOnce(key, shape);
    attempts++;
    const wait = Number(outcome.retryAfter ?? 0) * 1000;
    const refused = outcome.status === 503 || outcome.status === 429;
    if (!refused || wait <= 0 || performance.now() + wait > until)
      return { ...outcome, ms: performance.now() - t, attempts };
    await new Promise((r) => setTimeout(r, wait));
  }
}

/** `clients` closed-loop clients, each sending its next search once the last one ended, for `seconds`. */
export async function closedLoop(
  clients: number,
  seconds: number,
  next: (until: number) => Promise<Outcome>,
): Promise<Outcome[]> {
  const out: Outcome[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < until) out.push(await next(until));
    }),
  );
  return out;
}

export interface Measured {
  name: string;
  outcomes: Outcome[];
  seconds: number;
  /**
   * CPU-seconds of the whole stack (services, Kafka, PostgreSQL, Redis): the simulated partners and this process apart.
   */
  stackCpuSeconds: number;
  simulatorCpuSeconds: number;
  gatewayCpuSeconds: number;
}

/** The partners' stand-in: its CPU is the partners', not the stack's. */
const SIMULATOR = 'provider-sim';

export async function measure(location: StackLocation, name: string, run: () => Promise<Outcome[]>): Promise<Measured> {
  const before: Snapshot = snapshot(location);
  const started = performance.now();
  const outcomes = await run();
  const seconds = (performance.now() - started) / 1000;
  const usage = usageBetween(before, snapshot(location));
  let stackCpuSeconds = 0;
  for (const [group, used] of usage)
    if (group !== GROUP.bench && group !== GROUP.kafkaJit && group !== SIMULATOR) stackCpuSeconds += used.seconds;
  return {
    name,
    outcomes,
    seconds,
    stackCpuSeconds,
    simulatorCpuSeconds: usage.get(SIMULATOR)?.seconds ?? 0,
    gatewayCpuSeconds: usage.get('gateway')?.seconds ?? 0,
  };
}

export const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const ms = (sorted: number[], p: number) => (sorted.length ? percentile(sorted, p).toFixed(0) : '-');

export const OUTCOME_HEADER = [
  'requests',
  '200',
  '503',
  '429',
  '500',
  'other',
  'refused %',
  'refusals without Retry-After',
  'answered p50 (ms)',
  'answered p95',
  'refusal p50 (ms)',
  'Retry-After (s)',
  'answered/s',
  'stack CPU ms/answer (simulator apart)',
];
export const OUTCOME_ALIGN = [
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---:',
  '---',
  '---:',
  '---:',
];

/** The figures of one group of outcomes, in OUTCOME_HEADER's order. */
export function outcomeCells(outcomes: Outcome[], seconds: number, stackCpuSeconds: number): Array<string | number> {
  const by = (status: number) => outcomes.filter((o) => o.status === status);
  const answered = by(200)
    .map((o) => o.ms)
    .sort((a, b) => a - b);
  const refusals = outcomes.filter((o) => o.status === 503 || o.status === 429);
  const refusalMs = refusals.map((o) => o.ms).sort((a, b) => a - b);
  const retryAfters = refusals.map((o) => Number(o.retryAfter)).filter((n) => Number.isFinite(n) && n > 0);
  const other = outcomes.filter((o) => ![200, 503, 429, 500].includes(o.status)).length;
  return [
    outcomes.length,
    answered.length,
    by(503).length,
    by(429).length,
    by(500).length,
    other,
    outcomes.length ? ((100 * refusals.length) / outcomes.length).toFixed(1) : '-',
    refusals.filter((o) => !o.retryAfter).length,
    ms(answered, 50),
    ms(answered, 95),
    ms(refusalMs, 50),
    retryAfters.length ? `${Math.min(...retryAfters)}-${Math.max(...retryAfters)}` : '-',
    seconds > 0 ? (answered.length / seconds).toFixed(1) : '-',
    answered.length ? ((1000 * stackCpuSeconds) / answered.length).toFixed(0) : '-',
  ];
}
