import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { OutboxModule } from '@jobs/outbox';
import { CanonicalJobRepository } from './canonical-jobs/canonical-job.repository.js';
import { DeduplicateWaveUseCase } from './canonical-jobs/deduplicate-wave.usecase.js';
import { RecordsConsumer } from './canonical-jobs/records.consumer.js';
import { listingLags, type DedupeConfig } from './config.js';
import { AnswerOwnIndexQueryUseCase } from './own-index/answer-own-index-query.usecase.js';
import { OwnIndexQueryConsumer } from './own-index/own-index-query.consumer.js';
import { OwnIndexStore } from './own-index/own-index.store.js';
import { DedupeQueriesConsumer } from './queries/dedupe-queries.consumer.js';
import { ReadStoredJobUseCase } from './queries/read-stored-job.usecase.js';
import { AsyncChunksConsumer } from './async-chunks/async-chunks.consumer.js';
import { DeduplicateChunkUseCase } from './async-chunks/deduplicate-chunk.usecase.js';
import { CompanyNameKeys } from './companies/company-name-keys.js';
import { BuildCompanyProfileUseCase } from './companies/build-company-profile.usecase.js';
import { MergeRefreshUseCase } from './refresh/merge-refresh.usecase.js';
import { LiveWorkGate } from '@jobs/service-kit';
import { LIVE_QUIET_MS } from './refresh/refresh-records.consumer.js';
import { RefreshRecordsConsumer } from './refresh/refresh-records.consumer.js';
import { RefreshRequestedConsumer } from './refresh/refresh-requested.consumer.js';
import { REFRESH_SETTINGS, RefreshPlanner } from './refresh/refresh-planner.js';
import { CloseRemovedBoardsUseCase } from './crawler-boards/close-removed-boards.usecase.js';
import { StoreVerification } from './verification/store-verification.js';

@Module({})
export class DedupeModule {
  static forRoot(config: DedupeConfig): DynamicModule {
    return {
      module: DedupeModule,
      imports: [
        PrismaModule.forRoot({ url: config.DATABASE_URL }),
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          groupId: 'dedupe',
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
          // A search's partner wave and own index leg arrive on two partitions at once, and the
          // merges of different searches need no order among themselves (advisory locks keep one
          // opening one job): up to 8 side by side, within the pool of 10 connections, handled
          // apart from the fetch loop so one slow merge never holds the next search's batches.
          partitionsConsumedConcurrently: 8,
          detachedInFlight: 8,
          // Refresh work in groups of its own: a refresh part's merge (or its wait for live work)
          // never holds back the fetch of a search's batches, and a round's merges (`dedupe.refresh`)
          // never hold back a pass's or an operator's request (`dedupe.passes`).
          backgroundGroups: [
            { suffix: 'refresh', topics: [Topics.RefreshRecordsFetched], partitionsConsumedConcurrently: 1 },
            {
              suffix: 'passes',
              topics: [Topics.RefreshPassRecordsFetched, Topics.RefreshRequested],
              partitionsConsumedConcurrently: 2,
            },
            // Async search chunks (200 records each) beside, not in front of, a sync search's batches.
            { suffix: 'async', topics: [Topics.AsyncChunkFetched], partitionsConsumedConcurrently: 4 },
          ],
        }),
        // lifecycle and hiring changes are staged in the merge transaction, published by the relay
        OutboxModule,
      ],
      controllers: [
        RecordsConsumer,
        OwnIndexQueryConsumer,
        DedupeQueriesConsumer,
        AsyncChunksConsumer,
        RefreshRecordsConsumer,
        RefreshRequestedConsumer,
      ],
      providers: [
        CanonicalJobRepository,
        OwnIndexStore,
        DeduplicateWaveUseCase,
        AnswerOwnIndexQueryUseCase,
        ReadStoredJobUseCase,
        DeduplicateChunkUseCase,
        BuildCompanyProfileUseCase,
        CompanyNameKeys,
        // The refresh pipeline: passes planned here (the store's owner), sweeps merged here.
        RefreshPlanner,
        CloseRemovedBoardsUseCase,
        MergeRefreshUseCase,
        // how fresh the store is per provider, and whether the rounds keep the freshness bound
        StoreVerification,
        // Live work (search batches, async chunks, job and company reads) goes before refresh parts.
        { provide: LiveWorkGate, useValue: new LiveWorkGate(LIVE_QUIET_MS) },
        {
          provide: REFRESH_SETTINGS,
          useValue: {
            intervalMs: config.REFRESH_INTERVAL_MS,
            buckets: config.REFRESH_BUCKETS,
            listingLagMs: listingLags(config),
          },
        },
      ],
    };
  }
}
