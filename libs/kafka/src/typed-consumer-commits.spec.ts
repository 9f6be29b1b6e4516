import { jest } from '@jest/globals';
import type { EachMessagePayload } from 'kafkajs';
import { COMMIT_LINGER_MS } from './offset-commits.js';
import { asBatch, eachMessage, message, settings, stubKafka, topic } from './typed-consumer.spec-helper.js';
import { TopicConsumer } from './typed-consumer.js';

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
