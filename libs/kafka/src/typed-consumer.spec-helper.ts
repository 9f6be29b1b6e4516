// Shared by the TopicConsumer specs: a kafkajs stand-in that hands over `run`'s handler, and
// messages and batches as kafkajs passes them.
import { jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import type {
  ConsumerConfig,
  ConsumerRunConfig,
  EachBatchPayload,
  EachMessagePayload,
  Kafka,
  KafkaMessage,
} from 'kafkajs';
import { z } from 'zod';
import type { Logger } from '@jobs/observability';
import type { TopicSpec } from './topic.js';

/** The kafkajs consumer stands in for the broker: it records its config and hands us `run`'s handler. */
export function stubKafka() {
  const seen: { config?: ConsumerConfig; run?: ConsumerRunConfig } = {};
  const emitter = new EventEmitter();
  const consumer = {
    events: {
      GROUP_JOIN: 'join',
      CRASH: 'crash',
      STOP: 'stop',
      DISCONNECT: 'disconnect',
      END_BATCH_PROCESS: 'end-batch',
    },
    on: (event: string, listener: (...args: unknown[]) => void) => emitter.on(event, listener),
    connect: async () => undefined,
    subscribe: async () => undefined,
    run: async (run: ConsumerRunConfig) => {
      seen.run = run;
    },
    disconnect: async () => undefined,
    commitOffsets: jest.fn(async (_offsets: Array<{ topic: string; partition: number; offset: string }>) => undefined),
  };
  const kafka = {
    consumer: (config: ConsumerConfig) => {
      seen.config = config;
      return consumer;
    },
  } as unknown as Kafka;
  return { kafka, seen, consumer };
}

const logger = {
  warn: jest.fn(),
  error: jest.fn(),
  info: jest.fn(),
  debug: jest.fn(),
  child: () => logger,
} as unknown as Logger;
export const topic: TopicSpec = {
  name: 'search.requested',
  value: z.object({ v: z.literal(1) }),
} as unknown as TopicSpec;
export const settings = { groupId: 'dedupe', service: 'dedupe', logger, deadLetter: async () => undefined };

/**
 * kafkajs handing messages of one partition over as a batch, running until told otherwise; `resolved` records the
 * offsets resolved.
 */
export function batchPayload(
  partition: number,
  messages: KafkaMessage[],
  heartbeat: () => Promise<void> = jest.fn(async () => undefined),
  state = { running: true },
) {
  const resolved: string[] = [];
  const payload = {
    batch: { topic: topic.name, partition, messages },
    resolveOffset: (offset: string) => void resolved.push(offset),
    heartbeat,
    isRunning: () => state.running,
    isStale: () => false,
  } as unknown as EachBatchPayload;
  return { payload, resolved };
}

/** One message as a batch of one (every TopicConsumer takes batches). */
export const asBatch = (one: EachMessagePayload, state?: { running: boolean }) =>
  batchPayload(one.partition, [one.message], one.heartbeat, state);

export const eachMessage = (seen: { run?: ConsumerRunConfig }, payload: EachMessagePayload) =>
  seen.run!.eachBatch!(asBatch(payload).payload);

export function message(): EachMessagePayload {
  return {
    topic: topic.name,
    partition: 0,
    message: {
      key: null,
      value: Buffer.from('{"v":1}'),
      offset: '7',
      headers: {},
      timestamp: '0',
      attributes: 0,
      size: 0,
    },
    heartbeat: jest.fn(async () => undefined),
    pause: () => () => undefined,
  } as unknown as EachMessagePayload;
}
