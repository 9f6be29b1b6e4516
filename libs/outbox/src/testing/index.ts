// For integration specs: stages outbox rows as the relay does (topic, key, value; `around` puts
// the insert inside the caller's statement, `onlyIf` its condition), without Kafka, each value checked against its
// topic's contract as its consumer would check it; the specs read `outbox_messages` to see what
// would be published.
import type { TopicSpec, ValueOf } from '@jobs/kafka';
import { enqueueSerializedOutbox, type AroundOutboxInsert, type OutboxWriter, type Prisma } from '@jobs/db';
import type { OutboxRelay } from '../outbox-relay.js';

export function outboxStub(): OutboxRelay {
  const stageMany = async <T extends TopicSpec>(
    tx: OutboxWriter,
    topic: T,
    values: readonly ValueOf<T>[],
    around?: AroundOutboxInsert,
    onlyIf?: Prisma.Sql,
  ): Promise<boolean> => {
    const parsed = values.map((value) => topic.value.parse(value));
    const ids = await enqueueSerializedOutbox(
      tx,
      parsed.map((value) => ({
        topic: topic.name,
        key: topic.keyOf(value),
        value: JSON.stringify(value),
        headers: {},
      })),
      { around, onlyIf },
    );
    return ids.length > 0;
  };
  return {
    stage: async <T extends TopicSpec>(tx: OutboxWriter, topic: T, value: ValueOf<T>) =>
      void (await stageMany(tx, topic, [value])),
    stageMany,
    kick: () => undefined,
  } as unknown as OutboxRelay;
}
