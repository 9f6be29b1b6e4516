/**
 * The floor of one Kafka hop on this machine beside what the services' own Kafka layer makes of
 * it: a message published one at a time, timed from just before the publish call to the start of
 * the consumer's handler. Three ways over the same broker:
 *   - bare kafkajs: a default producer and consumer, no headers;
 *   - bare kafkajs as the services configure it: idempotent producer, `acks` -1, their headers;
 *   - `@jobs/kafka`: `TypedProducer.publish` (zod check, coalescing sender, PRODUCER span, headers)
 *     to a `TopicConsumer` handler (headers decoded, JSON and zod parse, CONSUMER span), on the
 *     services' client (TCP_NODELAY) and consumer settings.
 * A lone sync search takes six hops (bench:stages); the gap between the rows is the part of each
 * that is ours. Later rows send what the search path's messages weigh: a page of BENCH_PAGE_JOBS
 * (20) jobs, about 46 KB of JSON (the path's messages are 1-150 KB), through bare kafkajs and
 * through `@jobs/kafka` (whose consumer checks the page against the Job contract); the last two
 * send 16 at a time, as a busy stack's overlapping searches do. Needs only a broker.
 *
 * Beside the times, the CPU of a hop: this process's (producer and consumer both run in it) and
 * the broker's (that of the stack of STACK_PIDS_FILE, the dev stack's by default; n/a when none
 * runs), read around the hops, over their count. What each spent over an equal idle stretch
 * right after, the row's clients still connected, is taken off (idle fetch loops, heartbeats, a
 * running stack's clients of the broker). Each row runs in a process of its own, started with this
 * one's Node flags: heap and compiled code left by one row do not weigh on the next.
 *
 *   npm run up                                   # or any broker; the dev stack's is 19092
 *   KAFKA_BROKERS=127.0.0.1:19092 BENCH_MESSAGES=200 npm run bench -- kafka-hop
 *   node --initial-old-space-size=256 bench/dist/kafka-hop.js      # the rows with the services' heap flags
 *
 * Then, in this process and without a broker, what kafkajs spends encoding one Fetch request (the
 * version it speaks to Kafka 4) that names as many partitions as a service's groups do (12 a topic:
 * a group of 1, 3 and 6 topics): every fetch of every member encodes all its partitions again,
 * a few a search in each service.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { examples, JobSchema, Topics, type Job } from '@jobs/contracts';
import { createKafkaClient, TopicConsumer, TypedProducer, type TopicSpec } from '@jobs/kafka';
import { createLogger } from '@jobs/observability';
import { processCpuMs, stackLocation } from './proc-cpu.js';
import { percentile } from './stack.js';

const execFileAsync = promisify(execFile);
const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const count = Number(process.env['BENCH_MESSAGES'] ?? 100);
/**
 * Partitions of each row's scratch topic (the messages' keys spread them): a consumer's fetch
 * names every partition it is assigned, as the services' do (their groups hold 12-36).
 */
const partitions = Number(process.env['BENCH_PARTITIONS'] ?? 1);
const run = `${process.pid}-${Date.now()}`;
/** A search page's worth of jobs (descriptions of 1,200 characters, as the simulated partners write them). */
const PAGE: Job[] = Array.from({ length: Number(process.env['BENCH_PAGE_JOBS'] ?? 20) }, (_, i) => ({
  ...examples.job(),
  id: `job_hop${i}`,
  description: 'x'.repeat(1200),
}));
const HEADERS = {
  traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01',
  'x-request-id': 'req_abcdefghijkl',
  'x-stages': 'gateway',
};

/** How long a fresh consumer group takes to join and be assigned its partition, before the first message. */
const JOIN_WAIT_MS = 3000;

/** The broker of the stack of STACK_PIDS_FILE (the dev stack's by default), where the other benchmarks find it. */
const brokerPid = (() => {
  const pidsFile = resolve(process.env['STACK_PIDS_FILE'] ?? '.local/run/dev/pids.json');
  try {
    const pid = Number(readFileSync(stackLocation(pidsFile, undefined, undefined).kafkaPidFile, 'utf8').trim());
    return processCpuMs(pid) === undefined ? undefined : pid;
  } catch {
    return undefined;
  }
})();
const brokerCpuMs = () => (brokerPid === undefined ? 0 : (processCpuMs(brokerPid) ?? 0));
const ownCpuMs = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

/** Hop times (sorted) and CPU-ms a hop: this process's (both ends) and the broker's beyond its idle. */
interface Hops {
  times: number[];
  clientCpuMs: number;
  brokerCpuMs: number;
}

/**
 * Times `count` hops on a scratch topic of `partitions` partitions, deleted afterwards: `start` connects a
 * producer and a consumer whose handler calls `arrived`, and returns how to send message `i` and
 * how to stop. Messages go `inFlight` at a time (1: one at a time, as a lone search's hops are;
 * 16: as a busy stack's searches overlap), a pause between those bursts; a hop's time runs from its
 * burst's start to its arrival.
 */
async function timeHops(
  kafka: Kafka,
  topic: string,
  start: (arrived: () => void) => Promise<{ send: (i: number) => Promise<void>; stop: () => Promise<void> }>,
  inFlight = 1,
): Promise<Hops> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: partitions }], waitForLeaders: true });
  let arrived: (() => void) | undefined;
  const { send, stop } = await start(() => arrived?.());
  try {
    await sleep(JOIN_WAIT_MS);
    const hops: number[] = [];
    const [client0, broker0, t0] = [ownCpuMs(), brokerCpuMs(), performance.now()];
    for (let i = 0; i < count; i += inFlight) {
      const burst = Math.min(inFlight, count - i);
      const t = performance.now();
      const came = new Promise<void>((resolve) => {
        let left = burst;
        arrived = () => {
          hops.push(performance.now() - t);
          if (--left === 0) resolve();
        };
      });
      await Promise.all(Array.from({ length: burst }, (_, j) => send(i + j)));
      await came;
      await sleep(20);
    }
    const [client1, broker1, elapsed] = [ownCpuMs(), brokerCpuMs(), performance.now() - t0];
    // what both spend idle over as long, the row's clients still connected: their fetch loops and
    // heartbeats, the other clients of the broker (a running stack's)
    const [clientIdle0, brokerIdle0] = [ownCpuMs(), brokerCpuMs()];
    await sleep(elapsed);
    const [clientIdle, brokerIdle] = [ownCpuMs() - clientIdle0, brokerCpuMs() - brokerIdle0];
    return {
      times: hops.sort((a, b) => a - b),
      clientCpuMs: Math.max(0, client1 - client0 - clientIdle) / count,
      brokerCpuMs: Math.max(0, broker1 - broker0 - brokerIdle) / count,
    };
  } finally {
    await stop();
    await admin.deleteTopics({ topics: [topic] });
    await admin.disconnect();
  }
}

function bare(variant: 'plain' | 'as-services', page: Job[] = []): Promise<Hops> {
  const kafka = new Kafka({ clientId: 'bench-kafka-hop', brokers, logLevel: logLevel.NOTHING });
  const topic = `bench.kafka-hop.${variant}.${page.length}.${run}`;
  return timeHops(kafka, topic, async (arrived) => {
    const producer = kafka.producer(variant === 'plain' ? {} : { idempotent: true, maxInFlightRequests: 5 });
    const consumer = kafka.consumer({ groupId: topic, maxWaitTimeInMs: 1000 });
    await Promise.all([producer.connect(), consumer.connect()]);
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({ eachMessage: async () => arrived() });
    return {
      send: (i) =>
        producer
          .send({
            topic,
            acks: -1,
            messages: [
              {
                key: `k${i}`,
                value: JSON.stringify(page.length > 0 ? { i, jobs: page } : { i }),
                ...(variant === 'plain' ? {} : { headers: { ...HEADERS, 'x-message-id': `msg_${i}` } }),
              },
            ],
          })
          .then(() => undefined),
      stop: () => Promise.all([consumer.disconnect(), producer.disconnect()]).then(() => undefined),
    };
  });
}

function ours(page: Job[] = [], inFlight = 1): Promise<Hops> {
  const logger = createLogger({ service: 'bench-kafka-hop', level: 'warn' });
  const kafka = createKafkaClient({ clientId: 'bench-kafka-hop', brokers, logger });
  const Hop = z.object({ v: z.literal(1), i: z.number().int(), search_id: z.string(), jobs: z.array(JobSchema) });
  const topic: TopicSpec<typeof Hop> = {
    name: `bench.kafka-hop.ours.${page.length}.${inFlight}.${run}`,
    value: Hop,
    partitions,
    keyOf: (value) => value.search_id,
  };
  return timeHops(
    kafka,
    topic.name,
    async (arrived) => {
      const producer = new TypedProducer(kafka, 'bench');
      const consumer = new TopicConsumer(kafka, {
        groupId: topic.name,
        service: 'bench',
        logger,
        deadLetter: async () => undefined,
      });
      consumer.on(topic, async () => arrived());
      await producer.connect();
      await consumer.start();
      return {
        send: (i) => producer.publish(topic, { v: 1, i, search_id: `srch_${i}`, jobs: page }),
        stop: async () => {
          await consumer.stop();
          await producer.disconnect();
        },
      };
    },
    inFlight,
  );
}

const pageBytes = JSON.stringify({ i: 0, jobs: PAGE }).length;
/** The rows, each run in a process of its own (below): the CPU of one row's clients is not the next one's. */
const ROWS: ReadonlyArray<readonly [string, () => Promise<Hops>]> = [
  ['bare kafkajs, default producer, no headers', () => bare('plain')],
  ['bare kafkajs, idempotent producer, acks -1, the services\u2019 headers', () => bare('as-services')],
  ['`@jobs/kafka`: TypedProducer.publish to a TopicConsumer handler', () => ours()],
  [
    `bare kafkajs, idempotent producer, a page of ${PAGE.length} jobs (${(pageBytes / 1024).toFixed(0)} KB)`,
    () => bare('as-services', PAGE),
  ],
  [`\`@jobs/kafka\`, a page of ${PAGE.length} jobs (checked against the Job contract)`, () => ours(PAGE)],
  ['`@jobs/kafka`, 16 in flight', () => ours([], 16)],
  [`\`@jobs/kafka\`, 16 in flight, a page of ${PAGE.length} jobs each`, () => ours(PAGE, 16)],
];

const rowOf = (name: string, { times, clientCpuMs, brokerCpuMs }: Hops) =>
  `| ${name} | ${times.length} | ` +
  `${percentile(times, 50).toFixed(2)} | ` +
  `${percentile(times, 90).toFixed(2)} | ${times[0]!.toFixed(2)} | ` +
  `${clientCpuMs.toFixed(2)} | ${brokerPid === undefined ? 'n/a' : brokerCpuMs.toFixed(2)} |`;

const only = process.env['BENCH_HOP_ROW'];
if (only !== undefined) {
  // a child: one row, printed as its table line
  const [name, measure] = ROWS[Number(only)]!;
  process.stdout.write(`${rowOf(name, await measure())}\n`);
} else {
  // once unreported: the broker's first scratch topic and its JIT would weigh on the first row
  await runRow(0);
  const rows: string[] = [];
  for (let i = 0; i < ROWS.length; i++) rows.push(await runRow(i));
  process.stdout.write(
    [
      `One Kafka hop, publish call to handler start, one message (or burst) at a time (brokers ${brokers.join(',')}, ` +
        `topics of ${partitions} partition${partitions === 1 ? '' : 's'}):`,
      '',
      '| path | messages | p50 (ms) | p90 | min | client CPU-ms a hop (both ends) | broker CPU-ms a hop |',
      '|---|---:|---:|---:|---:|---:|---:|',
      ...rows,
      '',
      ...(await fetchEncodingRows()),
      '',
    ].join('\n'),
  );
}

/** kafkajs's Fetch v11 request (what it sends Kafka 4), encoded as its consumer does it before each fetch. */
type FetchRequest = (request: Record<string, unknown>) => { encode: () => Promise<Buffer> };

async function fetchEncodingRows(): Promise<string[]> {
  const fetchRequest = createRequire(import.meta.url)(
    'kafkajs/src/protocol/requests/fetch/v11/request.js',
  ) as FetchRequest;
  // as many partitions a topic as the search path's topics declare
  const perTopic = Topics.SearchRequested.partitions;
  const requestOf = (topics: number) =>
    fetchRequest({
      replicaId: -1,
      isolationLevel: 1,
      maxWaitTime: 5000,
      minBytes: 1,
      maxBytes: 10485760,
      rackId: '',
      topics: Array.from({ length: topics }, (_, t) => ({
        topic: `search.topic.${t}`,
        partitions: Array.from({ length: perTopic }, (_, partition) => ({
          partition,
          currentLeaderEpoch: -1,
          fetchOffset: String(1_000_000 + partition),
          logStartOffset: -1,
          maxBytes: 1048576,
        })),
      })),
    });
  const rows: string[] = [];
  for (const topics of [1, 3, 6]) {
    const encodings = 5000;
    for (let i = 0; i < 500; i++) await requestOf(topics).encode();
    const before = ownCpuMs();
    for (let i = 0; i < encodings; i++) await requestOf(topics).encode();
    rows.push(`| ${topics * perTopic} | ${(((ownCpuMs() - before) * 1000) / encodings).toFixed(1)} |`);
  }
  return [
    'kafkajs encoding one Fetch request (v11), in this process:',
    '',
    '| partitions named | CPU µs a request |',
    '|---:|---:|',
    ...rows,
  ];
}

/** Row `i` in a fresh process (this script again), its table line back. */
async function runRow(i: number): Promise<string> {
  const { stdout } = await execFileAsync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url)], {
    env: { ...process.env, BENCH_HOP_ROW: String(i) },
  });
  return stdout.trim().split('\n').at(-1)!;
}
