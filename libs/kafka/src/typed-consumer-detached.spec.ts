import { jest } from '@jest/globals';
import { batchPayload, message, settings, stubKafka, topic } from './typed-consumer.spec-helper.js';
import { TopicConsumer } from './typed-consumer.js';

/** Past a 1 ms commit linger, on the fake clock: what runs in between cannot reorder the timers. */
const settle = () => jest.advanceTimersByTimeAsync(10);

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
      jest.useFakeTimers();
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
      await jest.advanceTimersByTimeAsync(0);
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
    jest.useFakeTimers();
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
