import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { Kafka } from 'kafkajs';
import { Topics } from '@jobs/contracts';
import { TopicConsumer } from '@jobs/kafka';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { DrainRegistry, LOGGER, SERVICE_INFO, type ServiceInfo } from '@jobs/service-kit';
import { IdempotencyStore } from './idempotency.store.js';

/** One group for all replicas: each answer is kept once, and offsets survive restarts. */
export const SEARCH_ANSWERS_GROUP = 'gateway.idempotency';

/**
 * Keeps the answers of sync searches started under an Idempotency-Key, including answers that
 * arrive after the waiting request gave up with 500 (a charged page as its two halves, the page
 * and billing's outcome, joined when read). A retry with the same key then gets that
 * search's outcome (charged once, by billing, per search id) instead of a second search. This
 * is its own consumer group because the reply listener only settles requests still waiting.
 */
@Injectable()
export class SearchAnswersConsumer implements OnApplicationBootstrap {
  private readonly consumer: TopicConsumer;

  constructor(
    kafka: Kafka,
    publisher: KafkaPublisher,
    private readonly store: IdempotencyStore,
    @Inject(LOGGER) logger: Logger,
    @Inject(SERVICE_INFO) info: ServiceInfo,
    drains: DrainRegistry,
  ) {
    const watched = (searchId: string | null) => searchId !== null && this.store.isWatched(searchId);
    this.consumer = new TopicConsumer(kafka, {
      groupId: SEARCH_ANSWERS_GROUP,
      service: 'gateway',
      groupInstanceId: info.replicaId,
      logger: logger.child({ component: 'consumer', group: SEARCH_ANSWERS_GROUP }),
      fromBeginning: false,
      deadLetter: ({ consumerGroup, ...letter }) =>
        publisher.publish(Topics.DeadLetter, {
          v: 1,
          ...letter,
          failed_at: new Date().toISOString(),
          consumer_group: consumerGroup,
        }),
    })
      // most searches run without an Idempotency-Key: their answers (a page of jobs each) are not read at all
      .on(Topics.SearchResponded, (answer) => this.store.keepAnswer(answer), { wants: watched })
      .on(Topics.SearchPageGathered, (page) => this.store.keepPage(page), { wants: watched })
      .on(Topics.SearchPageCharged, (charged) => this.store.keepCharge(charged), { wants: watched });
    drains.register('idempotency-consumer', () => this.consumer.stop());
  }

  /** After module init, when the topics exist. */
  async onApplicationBootstrap(): Promise<void> {
    await this.consumer.start();
  }
}
