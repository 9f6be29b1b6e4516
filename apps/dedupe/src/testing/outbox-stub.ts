// For integration specs: stages outbox rows as the relay does (topic, key, contract-checked
// value), without Kafka; the specs read `outbox_messages` to see what would be published.
import type { TopicSpec, ValueOf } from '@jobs/kafka';
import { enqueueOutbox, type OutboxWriter } from '@jobs/db';
import type { OutboxRelay } from '@jobs/outbox';

export function outboxStub(): OutboxRelay {
  return {
    async stage<T extends TopicSpec>(tx: OutboxWriter, topic: T, value: ValueOf<T>): Promise<void> {
      const parsed = topic.value.parse(value);
      await enqueueOutbox(tx, { topic: topic.name, key: topic.keyOf(parsed), value: parsed as never });
    },
    kick: () => undefined,
  } as unknown as OutboxRelay;
}
