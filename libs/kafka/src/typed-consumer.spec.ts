import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type { ConsumerConfig, ConsumerRunConfig, EachMessagePayload, Kafka } from 'kafkajs';
import { z } from 'zod';
import type { Logger } from '@jobs/observability';
import { CONSUMER_HEARTBEAT_INTERVAL_MS, CONSUMER_SESSION_TIMEOUT_MS, groupInstanceIdOf, TopicConsumer } from './typed-consumer.js';
import type { TopicSpec } from './topic.js';

/** The kafkajs consumer stands in for the broker: it records its config and hands us `run`'s handler. */
function stubKafka() {
  const seen: { config?: ConsumerConfig; run?: ConsumerRunConfig } = {};
  const emitter = new EventEmitter();
  const consumer = {
    events: { GROUP_JOIN: 'join', CRASH: 'crash', STOP: 'stop', DISCONNECT: 'disconnect', END_BATCH_PROCESS: 'end-batch' },
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    connect: async () => undefined,
    subscribe: async () => undefined,
    run: async (run: ConsumerRunConfig) => {
      seen.run = run;
    },
    disconnect: async () => undefined,
  };
  const kafka = {
    consumer: (config: ConsumerConfig) => {
      seen.config = config;
      return consumer;
    },
  } as unknown as Kafka;
  return { kafka, seen };
}

const logger = { warn: jest.fn(), error: jest.fn(), info: jest.fn(), debug: jest.fn(), child: () => logger } as unknown as Logger;
const topic: TopicSpec = { name: 'search.requested', value: z.object({ v: z.literal(1) }) } as unknown as TopicSpec;
const settings = { groupId: 'dedupe', service: 'dedupe', logger, deadLetter: async () => undefined };

function message(): EachMessagePayload {
  return {
    topic: topic.name,
    partition: 0,
    message: { key: null, value: Buffer.from('{"v":1}'), offset: '7', headers: {}, timestamp: '0', attributes: 0, size: 0 },
    heartbeat: jest.fn(async () => undefined),
    pause: () => () => undefined,
  } as unknown as EachMessagePayload;
}

describe('TopicConsumer group membership', () => {
  it('joins as a static member under the replica name, made legal for Kafka', () => {
    const { kafka, seen } = stubKafka();
    new TopicConsumer(kafka, { ...settings, groupInstanceId: 'dedupe#2' });
    expect(seen.config).toMatchObject({ groupId: 'dedupe', groupInstanceId: 'dedupe_2', sessionTimeout: CONSUMER_SESSION_TIMEOUT_MS, heartbeatInterval: CONSUMER_HEARTBEAT_INTERVAL_MS });
  });

  it('joins as a dynamic member when no replica name is configured', () => {
    const { kafka, seen } = stubKafka();
    new TopicConsumer(kafka, settings);
    expect(seen.config).not.toHaveProperty('groupInstanceId');
  });

  it('keeps only the characters Kafka allows in a group.instance.id', () => {
    expect(groupInstanceIdOf('billing-7f9c.pod_1')).toBe('billing-7f9c.pod_1');
    expect(groupInstanceIdOf('gateway#2 on host/1')).toBe('gateway_2_on_host_1');
    expect(groupInstanceIdOf('x'.repeat(300))).toHaveLength(249);
  });
});

describe('TopicConsumer keep-alive', () => {
  afterEach(() => jest.useRealTimers());

  it('heartbeats while a handler runs longer than the heartbeat interval, and stops once it is done', async () => {
    jest.useFakeTimers();
    const { kafka, seen } = stubKafka();
    let finish!: () => void;
    const consumer = new TopicConsumer(kafka, settings).on(topic, () => new Promise<void>((resolve) => (finish = resolve)));
    await consumer.start();
    const payload = message();
    const handled = seen.run!.eachMessage!(payload);

    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).toHaveBeenCalledTimes(3);

    finish();
    await handled;
    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).toHaveBeenCalledTimes(3);
    await consumer.stop();
  });

  it('sends no heartbeat of its own while idle (kafkajs heartbeats from its fetch loop then)', async () => {
    jest.useFakeTimers();
    const { kafka, seen } = stubKafka();
    const consumer = new TopicConsumer(kafka, settings).on(topic, async () => undefined);
    await consumer.start();
    const payload = message();
    await seen.run!.eachMessage!(payload);
    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).not.toHaveBeenCalled();
    await consumer.stop();
  });
});
