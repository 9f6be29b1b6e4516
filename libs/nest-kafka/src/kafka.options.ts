import type { TopicSpec } from '@jobs/kafka';

export const KAFKA_OPTIONS = Symbol('KAFKA_OPTIONS');

export interface KafkaModuleOptions {
  brokers: string[];
  /** Consumer group of this service; several replicas share it. */
  groupId: string;
  /** Every topic of the declared topology: provisioned at start-up. */
  topology: readonly TopicSpec[];
  /** The dead-letter topic, where off-contract messages go. */
  deadLetterTopic: TopicSpec;
  /** Where a brand-new consumer group starts reading. */
  fromBeginning?: boolean;
  partitionsConsumedConcurrently?: number;
  /** See TopicConsumerSettings.concurrencyWithinPartition. */
  concurrencyWithinPartition?: number;
}
