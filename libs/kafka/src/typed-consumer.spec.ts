import { jest } from '@jest/globals';
import type { EachMessagePayload } from 'kafkajs';
import { z } from 'zod';
import type { TopicSpec } from './topic.js';
import { eachMessage, message, settings, stubKafka, topic } from './typed-consumer.spec-helper.js';
import {
  CONSUMER_HEARTBEAT_INTERVAL_MS,
  CONSUMER_SESSION_TIMEOUT_MS,
  groupInstanceIdOf,
  TopicConsumer,
} from './typed-consumer.js';

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

  it('reads a later version tolerantly: unknown fields, nested too, are accepted and kept for handlers', async () => {
    const { kafka, seen } = stubKafka();
    const deadLetter = jest.fn(async () => undefined);
    const handled: unknown[] = [];
    const nested: TopicSpec = {
      ...topic,
      value: z.strictObject({ v: z.literal(1), filters: z.strictObject({ title_or: z.array(z.string()) }) }),
    };
    const consumer = new TopicConsumer(kafka, { ...settings, deadLetter }).on(
      nested,
      async (value) => void handled.push(value),
    );
    await consumer.start();
    const later = { v: 1, added: 'root', filters: { title_or: ['engineer'], salary_currency: 'EUR' } };
    await eachMessage(seen, keyed('k', JSON.stringify(later)));
    // what it knows is still checked: a wrong type of a known field is off-contract
    await eachMessage(seen, keyed('k', JSON.stringify({ ...later, filters: { title_or: 'engineer' } })));
    expect(handled).toEqual([later]);
    expect(deadLetter).toHaveBeenCalledTimes(1);
    await consumer.stop();
  });

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
