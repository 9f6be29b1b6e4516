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
 * that is ours. Needs only a broker.
 *
 *   npm run up                                   # or any broker; the dev stack's is 19092
 *   KAFKA_BROKERS=127.0.0.1:19092 BENCH_MESSAGES=200 npm run bench:kafka-hop
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { Kafka, logLevel } from 'kafkajs';
import { z } from 'zod';
import { createKafkaClient, TopicConsumer, TypedProducer, type TopicSpec } from '@jobs/kafka';
import { createLogger } from '@jobs/observability';
import { percentile } from './stack.js';

const brokers = (process.env['KAFKA_BROKERS'] ?? '127.0.0.1:19092').split(',');
const count = Number(process.env['BENCH_MESSAGES'] ?? 100);
const run = `${process.pid}-${Date.now()}`;
const HEADERS = { traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', 'x-request-id': 'req_abcdefghijkl', 'x-stages': 'gateway' };

/** Sends `count` messages one at a time (a pause between them, as a lone search's hops are) and returns each hop's ms. */
async function timeHops(send: (i: number) => Promise<void>, arrived: { next?: () => void }): Promise<number[]> {
  const hops: number[] = [];
  for (let i = 0; i < count; i++) {
    const came = new Promise<void>((resolve) => (arrived.next = resolve));
    const t = performance.now();
    await send(i);
    await came;
    hops.push(performance.now() - t);
    await sleep(20);
  }
  return hops.sort((a, b) => a - b);
}

async function bare(variant: 'plain' | 'as-services'): Promise<number[]> {
  const kafka = new Kafka({ clientId: 'bench-kafka-hop', brokers, logLevel: logLevel.NOTHING });
  const topic = `bench.kafka-hop.${variant}.${run}`;
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic, numPartitions: 1 }], waitForLeaders: true });
  const producer = kafka.producer(variant === 'plain' ? {} : { idempotent: true, maxInFlightRequests: 5 });
  const consumer = kafka.consumer({ groupId: topic, maxWaitTimeInMs: 1000 });
  await Promise.all([producer.connect(), consumer.connect()]);
  await consumer.subscribe({ topics: [topic], fromBeginning: true });
  const arrived: { next?: () => void } = {};
  await consumer.run({ eachMessage: async () => arrived.next?.() });
  await sleep(3000); // the group's join
  const hops = await timeHops(
    (i) => producer.send({ topic, acks: -1, messages: [{ key: `k${i}`, value: JSON.stringify({ i }), ...(variant === 'plain' ? {} : { headers: { ...HEADERS, 'x-message-id': `msg_${i}` } }) }] }).then(() => undefined),
    arrived,
  );
  await Promise.all([consumer.disconnect(), producer.disconnect()]);
  await admin.deleteTopics({ topics: [topic] });
  await admin.disconnect();
  return hops;
}

async function ours(): Promise<number[]> {
  const logger = createLogger({ service: 'bench-kafka-hop', level: 'warn' });
  const kafka = createKafkaClient({ clientId: 'bench-kafka-hop', brokers, logger });
  const Hop = z.object({ v: z.literal(1), i: z.number().int(), search_id: z.string() });
  const topic: TopicSpec<typeof Hop> = { name: `bench.kafka-hop.ours.${run}`, value: Hop, partitions: 1, keyOf: (value) => value.search_id };
  const admin = kafka.admin();
  await admin.connect();
  await admin.createTopics({ topics: [{ topic: topic.name, numPartitions: 1 }], waitForLeaders: true });
  const producer = new TypedProducer(kafka, 'bench');
  const consumer = new TopicConsumer(kafka, { groupId: topic.name, service: 'bench', logger, deadLetter: async () => undefined });
  const arrived: { next?: () => void } = {};
  consumer.on(topic, async () => arrived.next?.());
  await producer.connect();
  await consumer.start();
  await sleep(3000);
  const hops = await timeHops((i) => producer.publish(topic, { v: 1, i, search_id: `srch_${i}` }), arrived);
  await consumer.stop();
  await producer.disconnect();
  await admin.deleteTopics({ topics: [topic.name] });
  await admin.disconnect();
  return hops;
}

const rows: string[] = [];
const row = (name: string, hops: number[]) =>
  rows.push(`| ${name} | ${hops.length} | ${percentile(hops, 50).toFixed(2)} | ${percentile(hops, 90).toFixed(2)} | ${hops[0]!.toFixed(2)} |`);
row('bare kafkajs, default producer, no headers', await bare('plain'));
row('bare kafkajs, idempotent producer, acks -1, the services\u2019 headers', await bare('as-services'));
row('`@jobs/kafka`: TypedProducer.publish to a TopicConsumer handler', await ours());
process.stdout.write(
  [`One Kafka hop, publish call to handler start, one message at a time (brokers ${brokers.join(',')}):`, '', '| path | messages | p50 (ms) | p90 | min |', '|---|---:|---:|---:|---:|', ...rows, ''].join('\n'),
);
