// For integration specs: stages outbox rows as the relay does (topic, key, contract-checked
// value), without Kafka; the specs read `outbox_messages` to see what would be published.
import type { TopicSpec, ValueOf } from '@jobs/kafka';
import { enqueueOutbox, enqueueOutboxMany, type OutboxWriter } from '@jobs/db';
import type { OutboxRelay } from '@jobs/outbox';

export function outboxStub(): OutboxRelay {
  return {
    async stage<T extends TopicSpec>(tx: OutboxWriter, topic: T, value: ValueOf<T>): Promise<void> {
      const parsed = topic.value.parse(value);
      await enqueueOutbox(tx, { topic: topic.name, key: topic.keyOf(parsed), value: parsed as never });
    },
    async stageMany<T extends TopicSpec>(tx: OutboxWriter, topic: T, values: readonly ValueOf<T>[]): Promise<void> {
      const parsed = values.map((value) => topic.value.parse(value));
      await enqueueOutboxMany(tx, parsed.map((value) => ({ topic: topic.name, key: topic.keyOf(value), value: value as never })));
    },
    kick: () => undefined,
  } as unknown as OutboxRelay;
}
