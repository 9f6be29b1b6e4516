/**
 * bench:isolation: what one partner that is slow, failing or silent does to everyone else's
 * freshness. For each fault of one partner (none; `fail: "timeout"`; `fail: "error"`;
 * `latency_ms` 20,000), set through the admin API (operator.md):
 *
 * 1. BENCH_SAMPLES samples, one after the other: a new opening listed by the own crawler only,
 *    at a company a Pro account watches (POST /v1/watches, every event type, its webhook on a
 *    local `Receiver`), then POST /admin/refresh. Measured from that call: when a Starter
 *    account's search (`title_or` the opening's unique word, polled every BENCH_POLL_MS) first
 *    finds it, and when the watch's `job.opened` for it reaches the receiver. Either later than
 *    BENCH_TIMEOUT_MS is missed.
 * 2. The fault is cleared (POST /providers/reset) and BENCH_CLEARED samples are taken at once:
 *    what a fault leaves behind once it is gone.
 *
 * Prints one Markdown row per fault and phase: p50, p95 and max of both latencies, and misses.
 * Run it on a stack at a short interval (the issue's targets are at REFRESH_INTERVAL_MS 2000):
 *
 *   REFRESH_INTERVAL_MS=2000 npm run up       # in another shell
 *   npm run bench -- isolation --samples 20 --partner provider_b
 *
 * Options (flag or env): --samples BENCH_SAMPLES (20), --cleared BENCH_CLEARED (10), --partner
 * BENCH_PARTNER (provider_b), --faults BENCH_FAULTS (none,timeout,error,latency),
 * BENCH_TIMEOUT_MS (30,000), BENCH_POLL_MS (100); BASE_URL, ADMIN_URL, ADMIN_TOKEN (the dev
 * stack of `npm run up`).
 */
import { parseArgs } from 'node:util';
import { WatchSchema, type Event } from '@jobs/contracts';
import { addWorldCompany, addWorldJob, admin, Receiver, type ProviderSlug } from '@jobs/e2e-support';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

const { values: flags } = parseArgs({
  options: {
    samples: { type: 'string' },
    cleared: { type: 'string' },
    partner: { type: 'string' },
    faults: { type: 'string' },
  },
});
const samples = Number(flags.samples ?? process.env['BENCH_SAMPLES'] ?? 20);
const clearedSamples = Number(flags.cleared ?? process.env['BENCH_CLEARED'] ?? 10);
const partner = (flags.partner ?? process.env['BENCH_PARTNER'] ?? 'provider_b') as ProviderSlug;
const faultNames = (flags.faults ?? process.env['BENCH_FAULTS'] ?? 'none,timeout,error,latency').split(',');
const timeoutMs = Number(process.env['BENCH_TIMEOUT_MS'] ?? 30_000);
const pollMs = Number(process.env['BENCH_POLL_MS'] ?? 100);

const FAULTS: Record<
  string,
  { label: string; settings: { fail?: 'none' | 'error' | 'timeout'; latency_ms?: number } | null }
> = {
  none: { label: 'no fault', settings: null },
  timeout: { label: `${partner} fail: "timeout"`, settings: { fail: 'timeout' } },
  error: { label: `${partner} fail: "error"`, settings: { fail: 'error' } },
  latency: { label: `${partner} latency_ms 20000`, settings: { latency_ms: 20_000 } },
};

/**
 * A public API call, straight: `api()` of @jobs/e2e-support awaits a whole refresh first when an
 * own-crawler opening was added, which is the very wait measured here.
 */
async function call(
  path: string,
  key: string,
  body?: unknown,
  method = body === undefined ? 'GET' : 'POST',
): Promise<{ status: number; body: unknown }> {
  const res = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
}

const say = (line: string) => process.stderr.write(`[bench:isolation] ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Sample {
  searchMs: number | null;
  eventMs: number | null;
}

const receiver = new Receiver();
await receiver.start();
const pro = await createBenchAccount({
  plan: 'pro',
  credits: 1_000_000,
  rate_limit: { limit: 1_000_000, window_seconds: 60 },
});
const domain = await addWorldCompany();
const webhookUrl = receiver.endpoint();
const watchAnswer = await call('/v1/watches', pro.liveKey, { type: 'company', domain, webhook_url: webhookUrl });
if (watchAnswer.status !== 201)
  throw new Error(`POST /v1/watches answered ${watchAnswer.status}: ${JSON.stringify(watchAnswer.body)}`);
const watch = WatchSchema.parse(watchAnswer.body);

/** When the watch's job.opened for this title arrived (epoch ms), if it has. */
function openedAt(title: string): number | undefined {
  for (const arrival of receiver.at(webhookUrl)) {
    const event = JSON.parse(arrival.raw) as Event;
    if (event.type === 'job.opened' && event.watch_id === watch.id && event.data.job.title === title) return arrival.at;
  }
  return undefined;
}

/** Answers other than 200, by status: a poll refused is not a poll that found nothing. */
const refused = new Map<number, number>();

async function foundBySearch(key: string, keyword: string): Promise<boolean> {
  const res = await call('/v1/jobs/search', key, { filters: { title_or: [keyword] }, limit: 5 });
  if (res.status !== 200) refused.set(res.status, (refused.get(res.status) ?? 0) + 1);
  return res.status === 200 && ((res.body as { data?: unknown[] }).data?.length ?? 0) > 0;
}

async function sample(): Promise<Sample> {
  // a Starter account of its own per sample: polling is never held back by the plan's rate limit
  const starter = await createBenchAccount({
    plan: 'starter',
    credits: 10_000,
    rate_limit: { limit: 100_000, window_seconds: 60 },
  });
  const job = await addWorldJob({ providers: ['own_index'], company_domain: domain });
  const started = Date.now();
  await admin('POST', '/refresh', undefined, 202);
  let searchMs: number | null = null;
  let eventMs: number | null = null;
  while (Date.now() - started < timeoutMs && (searchMs === null || eventMs === null)) {
    if (searchMs === null && (await foundBySearch(starter.liveKey, job.keyword))) searchMs = Date.now() - started;
    const at: number | undefined = eventMs === null ? openedAt(job.title) : undefined;
    if (at !== undefined) eventMs = at - started;
    if (searchMs === null || eventMs === null) await sleep(pollMs);
  }
  return { searchMs, eventMs };
}

const rows: string[] = [];
const stats = (values: Array<number | null>) => {
  const got = values.filter((v): v is number => v !== null).sort((a, b) => a - b);
  const s = (ms: number) => (ms / 1000).toFixed(2);
  return got.length === 0
    ? 'none'
    : `${s(percentile(got, 50))} / ${s(percentile(got, 95))} / ${s(got[got.length - 1]!)}`;
};
const row = (label: string, phase: string, taken: Sample[]) => {
  const missed = taken.filter((t) => t.searchMs === null || t.eventMs === null).length;
  rows.push(
    `| ${label} | ${phase} | ${taken.length} | ` +
      `${stats(taken.map((t) => t.searchMs))} | ` +
      `${stats(taken.map((t) => t.eventMs))} | ${missed} |`,
  );
  say(rows[rows.length - 1]!);
};

try {
  await admin('POST', '/providers/reset', undefined, 204);
  for (const name of faultNames) {
    const fault = FAULTS[name];
    if (!fault) throw new Error(`unknown fault ${name}: one of ${Object.keys(FAULTS).join(', ')}`);
    if (fault.settings) await admin('PUT', `/providers/${partner}`, fault.settings);
    const faulted: Sample[] = [];
    for (let i = 0; i < samples; i++) faulted.push(await sample());
    row(fault.label, 'fault on', faulted);
    if (!fault.settings) continue;
    await admin('POST', '/providers/reset', undefined, 204);
    const cleared: Sample[] = [];
    for (let i = 0; i < clearedSamples; i++) cleared.push(await sample());
    row(fault.label, 'cleared', cleared);
  }
} finally {
  await admin('POST', '/providers/reset', undefined, 204).catch(() => undefined);
  await call(`/v1/watches/${watch.id}`, pro.liveKey, undefined, 'DELETE').catch(() => undefined);
  await receiver.stop();
}

console.log(
  `\nA new own-index opening after POST /admin/refresh ` +
    `(seconds, p50 / p95 / max; missed: not within ` +
    `${timeoutMs / 1000} s)\n`,
);
console.log("| fault | phase | samples | found by a Starter search | watched company's job.opened | missed |");
console.log('|---|---|---:|---|---|---:|');
for (const line of rows) console.log(line);
if (refused.size > 0)
  console.log(`\nSearch polls not answered 200: ${[...refused].map(([status, n]) => `${n} x ${status}`).join(', ')}`);
