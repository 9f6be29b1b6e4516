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
  /** See TopicConsumerSettings.detachedInFlight. */
  detachedInFlight?: number;
  /**
   * Topics of background work consumed by a group of their own (`<groupId>.<suffix>`), so a long
   * handler there never delays the live topics: kafkajs fetches again only once every batch of
   * the last fetch is handled, so one consumer's slow batch holds all of its partitions.
   */
  backgroundGroups?: readonly BackgroundGroup[];
}

export interface BackgroundGroup {
  suffix: string;
  topics: readonly TopicSpec[];
  partitionsConsumedConcurrently?: number;
  concurrencyWithinPartition?: number;
  detachedInFlight?: number;
}
