import type { Kafka } from 'kafkajs';
import { z } from 'zod';
import { requestContext } from '@jobs/observability';
import { TypedProducer } from './typed-producer.js';
import type { TopicSpec } from './topic.js';

const topic: TopicSpec<z.ZodObject<{ v: z.ZodLiteral<1>; id: z.ZodString }>> = {
  name: 'things',
  value: z.strictObject({ v: z.literal(1), id: z.string().min(1) }),
  partitions: 3,
  keyOf: (value) => value.id,
};

// Only the message building is exercised; no broker is involved.
const fakeKafka = { producer: () => ({}) } as unknown as Kafka;

describe('TypedProducer.toKafkaMessage', () => {
  const producer = new TypedProducer(fakeKafka, 'billing');

  it('keys, serializes and stamps the request context', () => {
    const message = requestContext.run({ requestId: 'req_1', stages: ['gateway', 'search-orchestrator'] }, () => producer.toKafkaMessage(topic, { v: 1, id: 'abc' }));
    expect(message.key).toBe('abc');
    expect(JSON.parse(String(message.value))).toEqual({ v: 1, id: 'abc' });
    const headers = message.headers as Record<string, string>;
    expect(headers['x-request-id']).toBe('req_1');
    expect(headers['x-stages']).toBe('gateway,search-orchestrator,billing');
    expect(headers['x-producer']).toBe('billing');
    expect(headers['x-message-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a value that breaks the contract', () => {
    expect(() => producer.toKafkaMessage(topic, { v: 1, id: '' })).toThrow();
    expect(() => producer.toKafkaMessage(topic, { v: 2, id: 'x' } as never)).toThrow();
  });
});
