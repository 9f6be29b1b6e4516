/**
 * Webhook delivery benchmark: N `event.emitted` messages for one real account (admin-created),
 * each with `webhook_url` on one of the local receivers this script starts (one HTTP server per
 * endpoint, each on its own port, so each is an origin of its own as customers' endpoints are),
 * published to Kafka as the watch matcher, billing and the orchestrator do (keyed by account,
 * like apps/webhook-dispatcher/test). Times first publish -> N-th delivery received, verifies
 * every delivery's `Service-Signature` as interface.md tells receivers to (HMAC-SHA256 of
 * `t.body`), and reads each process's CPU time from /proc before and after (bench/proc-cpu.ts):
 * CPU-ms per delivery for the dispatcher, Kafka and the stack's PostgreSQL backends.
 * The stack must allow private webhook addresses (WEBHOOK_ALLOW_PRIVATE, true in `npm run up`).
 *
 *   npm run up                          # in another shell (or any running stack)
 *   npm run bench -- webhooks              # BASE_URL/ADMIN_URL/ADMIN_TOKEN/KAFKA_BROKERS default to the dev stack
 *   BENCH_EVENTS=5000 BENCH_ENDPOINTS=8 npm run bench -- webhooks
 *
 * Env: BENCH_EVENTS (10,000), BENCH_ENDPOINTS (receivers the events are spread over, 4),
 * BENCH_TIMEOUT_MS (300,000), STACK_PIDS_FILE (`.local/run/dev/pids.json`).
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { Kafka, logLevel } from 'kafkajs';
import { Topics, type Event } from '@jobs/contracts';
import { GROUP, machineBetween, processEnv, servicePids, snapshot, stackLocation, usageBetween } from './proc-cpu.js';

const adminUrl = process.env['ADMIN_URL'] ?? 'http://127.0.0.1:8081';
const adminToken = process.env['ADMIN_TOKEN'] ?? 'dev-admin-token';
const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const total = Number(process.env['BENCH_EVENTS'] ?? 10_000);
const endpointCount = Number(process.env['BENCH_ENDPOINTS'] ?? 4);
const timeoutMs = Number(process.env['BENCH_TIMEOUT_MS'] ?? 300_000);
const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
const dispatcherEnv = processEnv(servicePids(pidsFile)['webhook-dispatcher']!);
const location = stackLocation(pidsFile, dispatcherEnv['DATABASE_URL'], dispatcherEnv['REDIS_URL']);

type Json = Record<string, unknown>;

async function admin(method: string, path: string, body?: unknown): Promise<Json> {
  const res = await fetch(`${adminUrl}/admin${path}`, {
    method,
    headers: {
      authorization: `Bearer ${adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`admin ${method} ${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as Json;
}

/** interface.md, Delivery 3: `t=<unix s>,v1=<hex hmac of "t.body">`, compared in constant time. */
function verifies(header: string | string[] | undefined, secret: string, raw: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = header.split(',').map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)] as const);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t)) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex'));
  return parts.some(
    ([k, v]) => k === 'v1' && Buffer.from(v).length === expected.length && timingSafeEqual(Buffer.from(v), expected),
  );
}

interface Arrival {
  path: string;
  signature: string | string[] | undefined;
  raw: string;
  at: number;
}
const arrivals: Arrival[] = [];
let notify: (() => void) | undefined;
/** One receiver: records each delivery and answers 200 at once (a customer that acknowledges and queues). */
function receiver(): Server {
  return createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      arrivals.push({
        path: req.url ?? '/',
        signature: req.headers['service-signature'],
        raw: Buffer.concat(chunks).toString('utf8'),
        at: Date.now(),
      });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
      if (arrivals.length >= total) notify?.();
    });
  });
}
const servers = Array.from({ length: endpointCount }, receiver);
await Promise.all(servers.map((server) => new Promise<void>((done) => server.listen(0, '127.0.0.1', done))));

const account = await admin('POST', '/accounts', { plan: 'pro', credits: 10 });
const accountId = String(account['account_id']);
const endpoints = servers.map(
  (server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks/${randomBytes(6).toString('hex')}`,
);

const run = randomBytes(4).toString('hex');
const events: Array<{ event: Event; url: string }> = Array.from({ length: total }, (_, i) => ({
  url: endpoints[i % endpointCount]!,
  event: {
    id: `evt_bench${run}${i.toString(36)}`,
    type: 'search.completed',
    created_at: new Date().toISOString(),
    watch_id: null,
    data: { search: { id: `srch_bench${run}${i.toString(36)}`, status: 'completed', jobs_found: i } },
  },
}));

const producer = new Kafka({ clientId: 'bench-webhooks', brokers, logLevel: logLevel.NOTHING }).producer();
await producer.connect();
const done = new Promise<void>((resolve) => (notify = resolve));
const before = snapshot(location);
const started = Date.now();
for (let i = 0; i < events.length; i += 500) {
  const values = events
    .slice(i, i + 500)
    .map(({ event, url }) => Topics.EventEmitted.value.parse({ v: 1, account_id: accountId, event, webhook_url: url }));
  await producer.send({
    topic: Topics.EventEmitted.name,
    messages: values.map((value) => ({ key: Topics.EventEmitted.keyOf(value), value: JSON.stringify(value) })),
  });
}
const publishedMs = Date.now() - started;
const timer = setTimeout(() => notify?.(), timeoutMs);
await done;
clearTimeout(timer);
const after = snapshot(location);
const received = arrivals.length;
const lastAt = arrivals[Math.min(total, received) - 1]?.at ?? Date.now();
const wallMs = lastAt - started;
await producer.disconnect();

const secrets = new Map<string, string>();
for (const url of endpoints)
  secrets.set(
    new URL(url).pathname,
    String((await admin('GET', `/accounts/${accountId}/webhook-secret?url=${encodeURIComponent(url)}`))['secret']),
  );
const verified = arrivals.filter((a) => verifies(a.signature, secrets.get(a.path) ?? '', a.raw)).length;
const distinct = new Set(arrivals.map((a) => (JSON.parse(a.raw) as { id: string }).id)).size;
for (const server of servers) {
  server.closeAllConnections();
  server.close();
}

const row = (cells: Array<string | number>) => `| ${cells.join(' | ')} |`;
const delivered = Math.min(total, received);
const usage = usageBetween(before, after);
const machine = machineBetween(before, after);
const busyPercent = (100 * machine.busySeconds) / Math.max(1e-9, (machine.cores * (after.at - before.at)) / 1000);
const cpuMs = (label: string) => ((usage.get(label)?.seconds ?? 0) * 1000) / Math.max(1, delivered);
const CPU_ROWS = ['webhook-dispatcher', GROUP.kafka, GROUP.pgBackends, GROUP.pgWorkers, GROUP.bench] as const;
process.stdout.write(
  [
    row([
      'events',
      'endpoints',
      'published in (s)',
      'first publish -> N-th delivery (s)',
      'deliveries/s',
      'delivered (distinct)',
      'signatures verified',
    ]),
    '|---:|---:|---:|---:|---:|---:|---:|',
    row([
      total.toLocaleString('en'),
      endpointCount,
      (publishedMs / 1000).toFixed(2),
      (wallMs / 1000).toFixed(2),
      (delivered / (wallMs / 1000)).toFixed(1),
      `${received} (${distinct})`,
      `${verified}/${received}`,
    ]),
    '',
    row(['process', 'CPU-s in the run', 'CPU-ms per delivery']),
    '|---|---:|---:|',
    ...CPU_ROWS.map((label) =>
      row([
        label === GROUP.bench ? 'this benchmark (publisher and receivers)' : label,
        (usage.get(label)?.seconds ?? 0).toFixed(2),
        cpuMs(label).toFixed(3),
      ]),
    ),
    row([
      'stack (dispatcher + Kafka + PostgreSQL)',
      CPU_ROWS.slice(0, 4)
        .reduce((sum, label) => sum + (usage.get(label)?.seconds ?? 0), 0)
        .toFixed(2),
      CPU_ROWS.slice(0, 4)
        .reduce((sum, label) => sum + cpuMs(label), 0)
        .toFixed(3),
    ]),
    '',
    `machine: ${machine.busySeconds.toFixed(1)} CPU-s busy of ` +
      `${machine.cores} cores over ` +
      `${((after.at - before.at) / 1000).toFixed(1)} s ` +
      `(${busyPercent.toFixed(0)} ` +
      `% busy, every process on the machine)`,
  ].join('\n') + '\n',
);
if (received < total || verified !== received || distinct !== received) process.exitCode = 1;
