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
import { COMMIT_LINGER_MS } from './offset-commits.js';
import { PartitionProgress } from './partition-progress.js';
import {
  CONSUMER_HEARTBEAT_INTERVAL_MS,
  CONSUMER_SESSION_TIMEOUT_MS,
  groupInstanceIdOf,
  TopicConsumer,
} from './typed-consumer.js';
import type { TopicSpec } from './topic.js';

/** The kafkajs consumer stands in for the broker: it records its config and hands us `run`'s handler. */
function stubKafka() {
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
const topic: TopicSpec = { name: 'search.requested', value: z.object({ v: z.literal(1) }) } as unknown as TopicSpec;
const settings = { groupId: 'dedupe', service: 'dedupe', logger, deadLetter: async () => undefined };

/**
 * kafkajs handing messages of one partition over as a batch, running until told otherwise; `resolved` records the
 * offsets resolved.
 */
function batchPayload(
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
const asBatch = (one: EachMessagePayload, state?: { running: boolean }) =>
  batchPayload(one.partition, [one.message], one.heartbeat, state);

const eachMessage = (seen: { run?: ConsumerRunConfig }, payload: EachMessagePayload) =>
  seen.run!.eachBatch!(asBatch(payload).payload);

function message(): EachMessagePayload {
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

describe('TopicConsumer group membership', () => {
  it('joins as a static member under the replica name, made legal for Kafka', () => {
    const { kafka, seen } = stubKafka();
    new TopicConsumer(kafka, { ...settings, groupInstanceId: 'dedupe#2' });
    expect(seen.config).toMatchObject({
      groupId: 'dedupe',
      groupInstanceId: 'dedupe_2',
      sessionTimeout: CONSUMER_SESSION_TIMEOUT_MS,
      heartbeatInterval: CONSUMER_HEARTBEAT_INTERVAL_MS,
    });
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
    const consumer = new TopicConsumer(kafka, settings).on(
      topic,
      () => new Promise<void>((resolve) => (finish = resolve)),
    );
    await consumer.start();
    const payload = message();
    const handled = eachMessage(seen, payload);

    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).toHaveBeenCalledTimes(3);

    finish();
    await handled;
    // the fetch loop's own heartbeat after the message (kafkajs sends it at most once an interval)
    expect(payload.heartbeat).toHaveBeenCalledTimes(4);
    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).toHaveBeenCalledTimes(4);
    await consumer.stop();
  });

  it('sends no heartbeat of its own while idle (kafkajs heartbeats from its fetch loop then)', async () => {
    jest.useFakeTimers();
    const { kafka, seen } = stubKafka();
    const consumer = new TopicConsumer(kafka, settings).on(topic, async () => undefined);
    await consumer.start();
    const payload = message();
    await eachMessage(seen, payload);
    expect(payload.heartbeat).toHaveBeenCalledTimes(1);
    await jest.advanceTimersByTimeAsync(CONSUMER_HEARTBEAT_INTERVAL_MS * 3);
    expect(payload.heartbeat).toHaveBeenCalledTimes(1);
    await consumer.stop();
  });
});

describe('TopicConsumer subscriptions that want few messages', () => {
  const keyed = (key: string, value: string): EachMessagePayload => {
    const payload = message();
    return {
      ...payload,
      message: { ...payload.message, key: Buffer.from(key), value: Buffer.from(value) },
    } as EachMessagePayload;
  };

  it(
    'passes over, unread, a message whose key the subscription ' + 'does not want, and hands on the ones it wants',
    async () => {
      const { kafka, seen } = stubKafka();
      const deadLetter = jest.fn(async () => undefined);
      const handled: unknown[] = [];
      const asked: Array<string | null> = [];
      const consumer = new TopicConsumer(kafka, { ...settings, deadLetter }).on(
        topic,
        async (value) => void handled.push(value),
        {
          wants: async (key) => (asked.push(key), key === 'wanted'),
        },
      );
      await consumer.start();
      // not wanted: not even parsed (an off-contract value would otherwise go to the dead letter)
      await eachMessage(seen, keyed('other', 'not json'));
      await eachMessage(seen, keyed('wanted', '{"v":1}'));
      expect(asked).toEqual(['other', 'wanted']);
      expect(handled).toEqual([{ v: 1 }]);
      expect(deadLetter).not.toHaveBeenCalled();
      await consumer.stop();
    },
  );

  it(
    'sends an off-contract value to the dead letter with its raw ' + 'text, unhandled, and goes on with the next',
    async () => {
      const { kafka, seen } = stubKafka();
      const deadLetter = jest.fn(async (_parked: { value: string; error: string; consumerGroup: string }) => undefined);
      const handled: unknown[] = [];
      const consumer = new TopicConsumer(kafka, { ...settings, deadLetter }).on(
        topic,
        async (value) => void handled.push(value),
      );
      await consumer.start();
      // the producer does not check: this is where the contract is enforced
      await eachMessage(seen, keyed('k', '{"v":2}'));
      await eachMessage(seen, keyed('k', 'not json'));
      await eachMessage(seen, keyed('k', '{"v":1}'));
      expect(handled).toEqual([{ v: 1 }]);
      expect(deadLetter.mock.calls.map(([parked]) => parked.value)).toEqual(['{"v":2}', 'not json']);
      expect(deadLetter.mock.calls.map(([parked]) => parked.error)).toEqual([
        expect.stringMatching(/^off-contract: /),
        expect.stringMatching(/^off-contract: SyntaxError/),
      ]);
      expect(deadLetter.mock.calls[0]![0]).toMatchObject({
        consumerGroup: 'dedupe',
        error: expect.stringContaining('invalid_value'),
      });
      await consumer.stop();
    },
  );

  it('lets a failure to decide fail the message, so that it comes again', async () => {
    const { kafka, seen } = stubKafka();
    const handler = jest.fn(async () => undefined);
    const consumer = new TopicConsumer(kafka, settings).on(topic, handler, {
      wants: async () => Promise.reject(new Error('redis away')),
    });
    await consumer.start();
    await expect(eachMessage(seen, keyed('k', '{"v":1}'))).rejects.toThrow('redis away');
    expect(handler).not.toHaveBeenCalled();
    await consumer.stop();
  });
});

describe('PartitionProgress', () => {
  it('commits up to the lowest offset still running, or one past the highest done', () => {
    const progress = new PartitionProgress();
    for (const offset of ['5', '6', '7']) progress.start(offset);
    progress.finish('6');
    // 5 was where the group stood when it was fetched: nothing new to commit while it runs
    expect(progress.commitable()).toBeUndefined();
    progress.finish('5');
    expect(progress.commitable()).toBe('7');
    progress.committedAt('7');
    progress.finish('7');
    expect(progress.commitable()).toBe('8');
    progress.committedAt('8');
    expect(progress.commitable()).toBeUndefined();
    expect(progress.idle).toBe(true);
  });
});

/** Past a 1 ms linger and the promise turns after it. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 10));

describe('TopicConsumer commits', () => {
  afterEach(() => jest.useRealTimers());

  const at = (offset: string, partition = 0) => {
    const payload = message();
    return { ...payload, partition, message: { ...payload.message, offset } } as EachMessagePayload;
  };

  it(
    'commits the offsets handled in order together, once the ' + 'linger has passed, kafkajs committing nothing itself',
    async () => {
      jest.useFakeTimers();
      const { kafka, seen, consumer: stub } = stubKafka();
      const consumer = new TopicConsumer(kafka, settings).on(topic, async () => undefined);
      await consumer.start();
      expect(seen.run!.autoCommit).toBe(false);
      const first = asBatch(at('7'));
      await seen.run!.eachBatch!(first.payload);
      expect(first.resolved).toEqual(['7']);
      await eachMessage(seen, at('8'));
      await eachMessage(seen, at('3', 1));
      await jest.advanceTimersByTimeAsync(COMMIT_LINGER_MS - 1);
      expect(stub.commitOffsets).not.toHaveBeenCalled();
      await jest.advanceTimersByTimeAsync(1);
      expect(stub.commitOffsets).toHaveBeenCalledTimes(1);
      expect(stub.commitOffsets).toHaveBeenLastCalledWith([
        { topic: topic.name, partition: 0, offset: '9' },
        { topic: topic.name, partition: 1, offset: '4' },
      ]);
      await jest.advanceTimersByTimeAsync(COMMIT_LINGER_MS * 4);
      expect(stub.commitOffsets).toHaveBeenCalledTimes(1);
      await consumer.stop();
    },
  );

  it(
    'sends what waits before a failing handler\u2019s error goes ' +
      'to kafkajs, and does not resolve the failed offset',
    async () => {
      const { kafka, seen, consumer: stub } = stubKafka();
      const consumer = new TopicConsumer(kafka, settings).on(topic, async (_value, meta) => {
        if (meta.offset === '11') throw new Error('database away');
      });
      await consumer.start();
      await eachMessage(seen, at('10'));
      expect(stub.commitOffsets).not.toHaveBeenCalled();
      const failing = asBatch(at('11'));
      await expect(seen.run!.eachBatch!(failing.payload)).rejects.toThrow('database away');
      expect(failing.resolved).toEqual([]);
      expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 0, offset: '11' }]);
      await consumer.stop();
    },
  );

  it('sends what waits at once when kafkajs stops, before it leaves the group', async () => {
    const { kafka, seen, consumer: stub } = stubKafka();
    const consumer = new TopicConsumer(kafka, settings).on(topic, async () => undefined);
    await consumer.start();
    const state = { running: true };
    const payload = at('20');
    const batch = asBatch(payload, state);
    // kafkajs stops while the message is handled: the batch's end commits it
    (payload.heartbeat as jest.Mock).mockImplementation(async () => void (state.running = false));
    await seen.run!.eachBatch!(batch.payload);
    expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 0, offset: '21' }]);
    await consumer.stop();
  });

  it('sends what waits when the consumer is stopped', async () => {
    const { kafka, seen, consumer: stub } = stubKafka();
    let left = false;
    stub.disconnect = async () => void (left = true);
    const consumer = new TopicConsumer(kafka, settings).on(topic, async () => undefined);
    await consumer.start();
    await eachMessage(seen, at('30'));
    expect(stub.commitOffsets).not.toHaveBeenCalled();
    stub.commitOffsets.mockImplementationOnce(async () => {
      expect(left).toBe(false);
      return undefined;
    });
    await consumer.stop();
    expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 0, offset: '31' }]);
    expect(left).toBe(true);
  });
});

describe('TopicConsumer detached handling', () => {
  afterEach(() => jest.useRealTimers());

  const batchOf = (offsets: string[]) =>
    batchPayload(
      3,
      offsets.map((offset) => ({ ...message().message, offset })),
    );

  it(
    'takes a batch without waiting for its handlers, and commits ' +
      'each offset only once everything before it is done',
    async () => {
      const { kafka, seen, consumer: stub } = stubKafka();
      const finish = new Map<string, () => void>();
      const consumer = new TopicConsumer(kafka, { ...settings, detachedInFlight: 8, commitLingerMs: 1 }).on(
        topic,
        (_value, meta) => new Promise<void>((resolve) => finish.set(meta.offset, resolve)),
      );
      await consumer.start();
      expect(seen.run!.autoCommit).toBe(false);
      const { payload, resolved } = batchOf(['10', '11', '12']);
      await seen.run!.eachBatch!(payload);
      // the fetch position moved past every message while all three handlers still run
      expect(resolved).toEqual(['10', '11', '12']);
      await new Promise((resolve) => setImmediate(resolve));
      expect(finish.size).toBe(3);
      finish.get('11')!();
      await settle();
      expect(stub.commitOffsets).not.toHaveBeenCalled();
      finish.get('10')!();
      await settle();
      expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 3, offset: '12' }]);
      finish.get('12')!();
      await consumer.stop();
      expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 3, offset: '13' }]);
    },
  );

  it('holds the fetch loop when the handlers in flight reach the limit', async () => {
    const { kafka, seen } = stubKafka();
    const finish: Array<() => void> = [];
    const consumer = new TopicConsumer(kafka, { ...settings, detachedInFlight: 2 }).on(
      topic,
      () => new Promise<void>((resolve) => finish.push(resolve)),
    );
    await consumer.start();
    const { payload, resolved } = batchOf(['1', '2', '3']);
    let taken = false;
    const take = seen.run!.eachBatch!(payload).then(() => (taken = true));
    await new Promise((resolve) => setImmediate(resolve));
    expect(resolved).toEqual(['1', '2']);
    expect(taken).toBe(false);
    finish[0]!();
    await take;
    expect(resolved).toEqual(['1', '2', '3']);
    for (const done of finish) done();
    await consumer.stop();
  });

  it('retries a failing handler in place and never commits past it until it succeeds', async () => {
    jest.useFakeTimers();
    const { kafka, seen, consumer: stub } = stubKafka();
    let failures = 2;
    const consumer = new TopicConsumer(kafka, { ...settings, detachedInFlight: 4, commitLingerMs: 1 }).on(
      topic,
      async () => {
        if (failures-- > 0) throw new Error('database away');
      },
    );
    await consumer.start();
    await seen.run!.eachBatch!(batchOf(['40']).payload);
    await jest.advanceTimersByTimeAsync(100);
    expect(stub.commitOffsets).not.toHaveBeenCalled();
    await jest.advanceTimersByTimeAsync(1_000);
    expect(stub.commitOffsets).toHaveBeenLastCalledWith([{ topic: topic.name, partition: 3, offset: '41' }]);
    await consumer.stop();
  });

  it('sends one commit at a time, the offsets that became committable meanwhile together in the next', async () => {
    const { kafka, seen, consumer: stub } = stubKafka();
    let answerCommit!: () => void;
    stub.commitOffsets.mockImplementationOnce(
      () => new Promise<undefined>((resolve) => (answerCommit = () => resolve(undefined))),
    );
    const consumer = new TopicConsumer(kafka, { ...settings, detachedInFlight: 8, commitLingerMs: 1 }).on(
      topic,
      async () => undefined,
    );
    await consumer.start();
    await seen.run!.eachBatch!(batchOf(['1']).payload);
    await settle();
    expect(stub.commitOffsets).toHaveBeenCalledTimes(1);
    const other = batchOf(['8', '9']).payload;
    (other.batch as { partition: number }).partition = 4;
    await seen.run!.eachBatch!(batchOf(['2', '3']).payload);
    await seen.run!.eachBatch!(other);
    await settle();
    expect(stub.commitOffsets).toHaveBeenCalledTimes(1);
    answerCommit();
    await consumer.stop();
    expect(stub.commitOffsets).toHaveBeenCalledTimes(2);
    expect(stub.commitOffsets).toHaveBeenLastCalledWith([
      { topic: topic.name, partition: 3, offset: '4' },
      { topic: topic.name, partition: 4, offset: '10' },
    ]);
  });
});
