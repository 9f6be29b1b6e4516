/**
 * Gateway overhead benchmark: `GET /v1/account` at a fixed concurrency for a fixed time against
 * the running stack, beside a bare Node `http` server started by this script on the same machine
 * that answers the same JSON bytes (no auth, no Redis, no database, no Fastify/Nest). Both are
 * driven by the same load loop in this process (global fetch, undici keep-alive), so the load
 * generator's own cost is in both columns; the ratio is the gateway's overhead per request.
 * The two alternate in rounds (gateway, bare, gateway, bare, ...): this host's speed drifts by a
 * third within a minute, and a ratio of two windows taken at different moments carried that
 * drift; each round's ratio is printed, and the ratio of the rounds pooled.
 *
 *   npm run up                     # in another shell (or any running stack)
 *   npm run bench -- account          # BASE_URL/ADMIN_URL/ADMIN_TOKEN default to the dev stack
 *   BENCH_SECONDS=10 BENCH_ROUNDS=6 BENCH_CONCURRENCY=64 npm run bench -- account
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { GROUP, processEnv, servicePids, snapshot, stackLocation, usageBetween } from './proc-cpu.js';
import { baseUrl, createBenchAccount, percentile } from './stack.js';

/** Each window's length; the rounds alternate the gateway's window and the bare server's. */
const seconds = Number(process.env['BENCH_SECONDS'] ?? 5);
const rounds = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 4));
const concurrency = Number(process.env['BENCH_CONCURRENCY'] ?? 64);

interface LoadResult {
  requests: number;
  errors: number;
  seconds: number;
  latencies: number[];
  /** CPU-ms per request by CPU_GROUPS, over the measured window (warm-up excluded). */
  cpuMs: number[];
}

/**
 * `concurrency` loops, each sending its next request when the previous answered, for `seconds` (after `warmMs` of
 * warm-up).
 */
async function load(url: string, headers: Record<string, string>, warmMs: number): Promise<LoadResult> {
  const one = async () => {
    const res = await fetch(url, { headers });
    await res.arrayBuffer();
    return res.status;
  };
  const warmUntil = Date.now() + warmMs;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (Date.now() < warmUntil) await one();
    }),
  );
  const latencies: number[] = [];
  let errors = 0;
  const before = snapshot(location);
  const started = performance.now();
  const until = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        const t = performance.now();
        const status = await one().catch(() => 0);
        latencies.push(performance.now() - t);
        if (status !== 200) errors++;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const usage = usageBetween(before, snapshot(location));
  const cpuMs = CPU_GROUPS.map((group) => ((usage.get(group)?.seconds ?? 0) * 1000) / Math.max(1, latencies.length));
  return { requests: latencies.length, errors, seconds: elapsed, latencies: latencies.sort((a, b) => a - b), cpuMs };
}

// CPU per request from /proc: the gateway process, the stack's PostgreSQL backends, the Redis
// server (shared) and this process (the load loop, and the bare server in its row).
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const gatewayPid = servicePids(pidsFile)['gateway']!;
const gatewayEnv = processEnv(gatewayPid);
const location = stackLocation(pidsFile, gatewayEnv['DATABASE_URL'], gatewayEnv['REDIS_URL']);
const CPU_GROUPS = ['gateway', GROUP.pgBackends, GROUP.redis, GROUP.bench] as const;

const { liveKey: key } = await createBenchAccount({
  plan: 'pro',
  credits: 100,
  rate_limit: { limit: 10_000_000, window_seconds: 60 },
});
const auth = { authorization: `Bearer ${key}` };
const sample = await fetch(`${baseUrl}/v1/account`, { headers: auth });
if (sample.status !== 200) throw new Error(`GET /v1/account answered ${sample.status}`);
const body = Buffer.from(await sample.arrayBuffer());

const bare = createServer((_req, res) =>
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': body.length }).end(body),
);
await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/v1/account`;

/** Rounds pooled: requests and latencies summed, CPU per request weighted by requests. */
function pooled(results: LoadResult[]): LoadResult {
  const requests = results.reduce((sum, r) => sum + r.requests, 0);
  return {
    requests,
    errors: results.reduce((sum, r) => sum + r.errors, 0),
    seconds: results.reduce((sum, r) => sum + r.seconds, 0),
    latencies: results.flatMap((r) => r.latencies).sort((a, b) => a - b),
    cpuMs: CPU_GROUPS.map(
      (_, i) => results.reduce((sum, r) => sum + r.cpuMs[i]! * r.requests, 0) / Math.max(1, requests),
    ),
  };
}
const gatewayRounds: LoadResult[] = [];
const bareRounds: LoadResult[] = [];
for (let round = 0; round < rounds; round++) {
  // A 1 s warm-up before each target's first window; later windows follow each other directly.
  gatewayRounds.push(await load(`${baseUrl}/v1/account`, auth, round === 0 ? 1000 : 0));
  bareRounds.push(await load(bareUrl, auth, round === 0 ? 1000 : 0));
}
const gateway = pooled(gatewayRounds);
const plain = pooled(bareRounds);
bare.closeAllConnections();
bare.close();

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const line = (name: string, r: LoadResult) =>
  row([
    name,
    r.requests.toLocaleString('en'),
    r.errors,
    (r.requests / r.seconds).toFixed(0),
    percentile(r.latencies, 50).toFixed(1),
    percentile(r.latencies, 95).toFixed(1),
    percentile(r.latencies, 99).toFixed(1),
  ]);
const rps = (r: LoadResult) => r.requests / r.seconds;
const gRps = rps(gateway);
const pRps = rps(plain);
const byRound = gatewayRounds
  .map((g, i) => {
    const bare = rps(bareRounds[i]!);
    return `${rps(g).toFixed(0)} / ${bare.toFixed(0)} (${((100 * rps(g)) / bare).toFixed(0)} %)`;
  })
  .join(', ');
process.stdout.write(
  [
    `GET /v1/account, concurrency ${concurrency}, ${rounds} ` +
      `rounds of ${seconds} s against each, alternating ` +
      `(${body.length}-byte answer); both driven by one Node load ` +
      `loop (fetch, keep-alive) on the same machine`,
    '',
    row(['server', 'requests', 'errors', 'requests/s', 'p50 (ms)', 'p95 (ms)', 'p99 (ms)']),
    '|---|---:|---:|---:|---:|---:|---:|',
    line('gateway (Fastify + Nest, API key lookup, PostgreSQL account read)', gateway),
    line('bare node:http, same JSON', plain),
    '',
    `by round, gateway / bare requests/s: ${byRound}`,
    '',
    `gateway overhead, rounds pooled: ` +
      `${(pRps / gRps).toFixed(1)}x the bare server's time per ` +
      `request (throughput ratio; gateway at ` +
      `${((100 * gRps) / pRps).toFixed(0)} % of the bare server), ` +
      `p50 ` +
      `${(percentile(gateway.latencies, 50) / Math.max(0.001, percentile(plain.latencies, 50))).toFixed(1)}x`,
    '',
    'CPU per request (ms, from /proc over the measured window)',
    '',
    row([
      'server',
      'gateway process',
      'PostgreSQL backends',
      'Redis (shared)',
      'this process (load loop; bare server)',
    ]),
    '|---|---:|---:|---:|---:|',
    row(['gateway', ...gateway.cpuMs.map((ms) => ms.toFixed(3))]),
    row(['bare node:http', ...plain.cpuMs.map((ms) => ms.toFixed(3))]),
  ].join('\n') + '\n',
);
if (gateway.errors > 0) process.exitCode = 1;
