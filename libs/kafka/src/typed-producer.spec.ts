import { metrics } from '@opentelemetry/api';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import type { Kafka, TopicMessages } from 'kafkajs';
import { z } from 'zod';
import { requestContext } from '@jobs/observability';
import { COALESCE_MAX_BYTES, CoalescingSender, TypedProducer } from './typed-producer.js';
import type { TopicSpec } from './topic.js';

const topic: TopicSpec<z.ZodObject<{ v: z.ZodLiteral<1>; id: z.ZodString }>> = {
  name: 'things',
  value: z.strictObject({ v: z.literal(1), id: z.string().min(1) }),
  partitions: 3,
  keyOf: (value) => value.id,
};

/** Reads what the process's instruments hold, on demand. */
class ReaderOnDemand extends MetricReader {
  protected override onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
  protected override onShutdown(): Promise<void> {
    return Promise.resolve();
  }
}
// set before anything counts: the instruments are made once, from the meter provider of that moment
const reader = new ReaderOnDemand();
metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));

/** The kafkajs producer's request listener, as the TypedProducer registered it. */
let onRequest: ((event: { payload: { apiName: string } }) => void) | undefined;
// Only the message building is exercised; no broker is involved.
const fakeKafka = {
  producer: () => ({
    events: { REQUEST: 'producer.network.request' },
    on: (event: string, listener: typeof onRequest) => {
      if (event === 'producer.network.request') onRequest = listener;
    },
  }),
} as unknown as Kafka;

describe('TypedProducer.toKafkaMessage', () => {
  const producer = new TypedProducer(fakeKafka, 'billing');

  it('keys, serializes and stamps the request context', () => {
    const message = requestContext.run({ requestId: 'req_1', stages: ['gateway', 'search-orchestrator'] }, () =>
      producer.toKafkaMessage(topic, { v: 1, id: 'abc' }),
    );
    expect(message.key).toBe('abc');
    expect(JSON.parse(String(message.value))).toEqual({ v: 1, id: 'abc' });
    const headers = message.headers as Record<string, string>;
    expect(headers['x-request-id']).toBe('req_1');
    expect(headers['x-stages']).toBe('gateway,search-orchestrator,billing');
    expect(headers['x-producer']).toBe('billing');
    expect(headers['x-message-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sends a value as it was built: the contract is checked by the consumer, not here', () => {
    const message = producer.toKafkaMessage(topic, { v: 1, id: 'abc' });
    expect(message.key).toBe('abc');
    expect(String(message.value)).toBe('{"v":1,"id":"abc"}');
    // what breaks the contract goes as it is: the consumer's parse sends it to the dead letter
    expect(() => producer.toKafkaMessage(topic, { v: 1, id: '' })).not.toThrow();
    expect(
      topic.value.safeParse(JSON.parse(String(producer.toKafkaMessage(topic, { v: 1, id: '' }).value))).success,
    ).toBe(false);
  });
});

describe('CoalescingSender', () => {
  const message = (value: string) => ({ key: 'k', value });
  const deferred = () => {
    let resolve!: () => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    return { promise, resolve, reject };
  };
  /** A sender whose requests are recorded and answered when the test says (`answers[i].resolve()`). */
  const answeredByHand = () => {
    const requests: TopicMessages[][] = [];
    const answers: Array<ReturnType<typeof deferred>> = [];
    const sender = new CoalescingSender(({ topicMessages }) => {
      requests.push(topicMessages);
      const answer = deferred();
      answers.push(answer);
      return answer.promise;
    });
    return { sender, requests, answers };
  };

  it('sends what is published in one turn in one request, and what comes while it is out in the next', async () => {
    const { sender, requests, answers } = answeredByHand();
    const first = [
      sender.send('a', [message('1')]),
      sender.send('b', [message('2')]),
      sender.send('a', [message('3')]),
    ];
    await new Promise((r) => setImmediate(r));
    expect(requests).toEqual([
      [
        { topic: 'a', messages: [message('1'), message('3')] },
        { topic: 'b', messages: [message('2')] },
      ],
    ]);
    // published while the first request is out: waits for it, then goes in one request
    const second = [sender.send('b', [message('4')]), sender.send('b', [message('5')])];
    await new Promise((r) => setImmediate(r));
    expect(requests).toHaveLength(1);
    answers[0]!.resolve();
    await Promise.all(first);
    await new Promise((r) => setImmediate(r));
    expect(requests[1]).toEqual([{ topic: 'b', messages: [message('4'), message('5')] }]);
    answers[1]!.resolve();
    await Promise.all(second);
    expect(sender.sent).toEqual({ requests: 2, messages: 5 });
  });

  it('fails every publish of a request that failed, and sends the next ones', async () => {
    let calls = 0;
    const sender = new CoalescingSender(async () => {
      calls += 1;
      if (calls === 1) throw new Error('broker down');
    });
    const failed = [sender.send('a', [message('1')]), sender.send('b', [message('2')])];
    await expect(
      Promise.all(
        failed.map((p) =>
          p.then(
            () => 'sent',
            (e: Error) => e.message,
          ),
        ),
      ),
    ).resolves.toEqual(['broker down', 'broker down']);
    await expect(sender.send('a', [message('3')])).resolves.toBeUndefined();
    expect(calls).toBe(2);
  });

  it('keeps a request under its size bound: a large publish goes on its own', async () => {
    const requests: TopicMessages[][] = [];
    const sender = new CoalescingSender(async ({ topicMessages }) => void requests.push(topicMessages));
    const big = 'x'.repeat(COALESCE_MAX_BYTES - 2);
    await Promise.all([
      sender.send('a', [message(big)]),
      sender.send('a', [message('small')]),
      sender.send('a', [message('more')]),
    ]);
    expect(requests.map((r) => r.flatMap((t) => t.messages.map((m) => String(m.value).length)))).toEqual([
      [big.length],
      [5, 4],
    ]);
  });

  it('compresses only a request that carries a message larger than the bound', async () => {
    const compressed: boolean[] = [];
    const sender = new CoalescingSender(async ({ compress }) => void compressed.push(compress));
    await sender.send('a', [message('small')]);
    await sender.send('a', [message('x'.repeat(COALESCE_MAX_BYTES + 1))]);
    await sender.send('a', [message('x'.repeat(COALESCE_MAX_BYTES / 2)), message('y'.repeat(COALESCE_MAX_BYTES / 2))]);
    expect(compressed).toEqual([false, true, false]);
  });

  it('splits one publish larger than the bound over requests, in order, answering once all are sent', async () => {
    const { sender, requests, answers } = answeredByHand();
    // ten messages of one key, each a third of the bound: one request holds three
    const third = (i: number) => message(`${i}`.padEnd(COALESCE_MAX_BYTES / 3, '.'));
    let done = false;
    const many = sender
      .send(
        'a',
        Array.from({ length: 10 }, (_, i) => third(i)),
      )
      .then(() => (done = true));
    const after = sender.send('b', [message('after')]);
    const sentSoFar = () => requests.flatMap((r) => r.flatMap((t) => t.messages.map((m) => String(m.value)[0])));
    for (let part = 0; part < 4; part++) {
      await new Promise((r) => setImmediate(r));
      expect(done).toBe(false);
      answers[part]!.resolve();
      await new Promise((r) => setImmediate(r));
    }
    await many;
    await after;
    expect(requests.map((r) => r.map((t) => [t.topic, t.messages.length]))).toEqual([
      [['a', 3]],
      [['a', 3]],
      [['a', 3]],
      [
        ['a', 1],
        ['b', 1],
      ],
    ]);
    expect(sentSoFar()).toEqual(['0', '1', '2', '3', '4', '5', '6', '7', '8', '9', 'a']);
  });

  it('fails a split publish at its first failed part and sends nothing more of it', async () => {
    const requests: TopicMessages[][] = [];
    const sender = new CoalescingSender(async ({ topicMessages }) => {
      requests.push(topicMessages);
      if (requests.length === 2) throw new Error('broker down');
    });
    const third = message('x'.repeat(COALESCE_MAX_BYTES / 3));
    await expect(
      sender.send(
        'a',
        Array.from({ length: 10 }, () => third),
      ),
    ).rejects.toThrow('broker down');
    expect(requests).toHaveLength(2);
    await expect(sender.send('a', [message('next')])).resolves.toBeUndefined();
    expect(requests).toHaveLength(3);
  });
});

describe('TypedProducer requests', () => {
  it('counts every request its kafkajs client sends, by API', async () => {
    new TypedProducer(fakeKafka, 'billing');
    onRequest!({ payload: { apiName: 'Produce' } });
    onRequest!({ payload: { apiName: 'Produce' } });
    onRequest!({ payload: { apiName: 'Metadata' } });
    const { resourceMetrics } = await reader.collect();
    const requests = resourceMetrics.scopeMetrics
      .flatMap((scope) => scope.metrics)
      .find((metric) => metric.descriptor.name === 'kafka_client_requests_total');
    expect(requests?.dataPoints.map((point) => [point.attributes['api'], point.value])).toEqual([
      ['Produce', 2],
      ['Metadata', 1],
    ]);
  });
});
