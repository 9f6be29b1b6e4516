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
 * that is ours. The two last rows send what the search path's messages weigh: a page of
 * BENCH_PAGE_JOBS (20) jobs, about 46 KB of JSON (the path's messages are 22-45 KB), through bare
 * kafkajs and through `@jobs/kafka` (whose consumer checks the page against the Job contract).
 * Needs only a broker.
 *
 *   npm run up                                   # or any broker; the dev stack's is 19092
 *   KAFKA_BROKERS=127.0.0.1:19092 BENCH_MESSAGES=200 npm run bench -- kafka-hop
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { examples, JobSchema, type Job } from '@jobs/contracts';
import { createKafkaClient, TopicConsumer, TypedProducer, type TopicSpec } from '@jobs/kafka';
import { createLogger } from '@jobs/observability';
import { percentile } from './stack.js';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const count = Number(process.env['BENCH_MESSAGES'] ?? 100);
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

/**
 * Times `count` hops on a scratch topic of one partition, deleted afterwards: `start` connects a
 * producer and a consumer whose handler calls `arrived`, and returns how to send message `i` and
 * how to stop. Messages go one at a time, a pause between them (as a lone search's hops are).
 */
async function timeHops(
  kafka: Kafka,
  topic: string,
  start: (arrived: () => void) => Promise<{ send: (i: number) => Promise<void>; stop: () => Promise<void> }>,
): Promise<number[]> {
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  let next: (() => void) | undefined;
  const { send, stop } = await start(() => next?.());
  try {
    await sleep(JOIN_WAIT_MS);
    const hops: number[] = [];
    for (let i = 0; i < count; i++) {
      const came = new Promise<void>((resolve) => (next = resolve));
      const t = performance.now();
      await send(i);
      await came;
      hops.push(performance.now() - t);
      await sleep(20);
    }
    return hops.sort((a, b) => a - b);
  } finally {
    await stop();
    await admin.deleteTopics({ topics: [topic] });
    await admin.disconnect();
  }
}

function bare(variant: 'plain' | 'as-services', page: Job[] = []): Promise<number[]> {
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

function ours(page: Job[] = []): Promise<number[]> {
  const logger = createLogger({ service: 'bench-kafka-hop', level: 'warn' });
  const kafka = createKafkaClient({ clientId: 'bench-kafka-hop', brokers, logger });
  const Hop = z.object({ v: z.literal(1), i: z.number().int(), search_id: z.string(), jobs: z.array(JobSchema) });
  const topic: TopicSpec<typeof Hop> = {
    name: `bench.kafka-hop.ours.${page.length}.${run}`,
    value: Hop,
    partitions: 1,
    keyOf: (value) => value.search_id,
  };
  return timeHops(kafka, topic.name, async (arrived) => {
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
  });
}

const rows: string[] = [];
const row = (name: string, hops: number[]) =>
  rows.push(
    `| ${name} | ${hops.length} | ` +
      `${percentile(hops, 50).toFixed(2)} | ` +
      `${percentile(hops, 90).toFixed(2)} | ${hops[0]!.toFixed(2)} ` +
      `|`,
  );
row('bare kafkajs, default producer, no headers', await bare('plain'));
row('bare kafkajs, idempotent producer, acks -1, the services\u2019 headers', await bare('as-services'));
row('`@jobs/kafka`: TypedProducer.publish to a TopicConsumer handler', await ours());
const pageBytes = JSON.stringify({ i: 0, jobs: PAGE }).length;
row(
  `bare kafkajs, idempotent producer, a page of ${PAGE.length} jobs (${(pageBytes / 1024).toFixed(0)} KB)`,
  await bare('as-services', PAGE),
);
row(`\`@jobs/kafka\`, a page of ${PAGE.length} jobs (checked against the Job contract)`, await ours(PAGE));
process.stdout.write(
  [
    `One Kafka hop, publish call to handler start, one message at a time (brokers ${brokers.join(',')}):`,
    '',
    '| path | messages | p50 (ms) | p90 | min |',
    '|---|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n'),
);
