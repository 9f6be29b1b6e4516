import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { RedisModule } from '@jobs/redis';
import type { OrchestratorConfig } from './config.js';
import { CollectBatchUseCase } from './search/collect-batch.usecase.js';
import { AnswerEstimateUseCase } from './search/answer-estimate.usecase.js';
import { AnswerFirstPageUseCase } from './search/answer-first-page.usecase.js';
import { ExtendResultSetUseCase } from './search/extend-result-set.usecase.js';
import { GatheredResult } from './search/gathered-result.js';
import { SearchAnswers } from './search/search-answers.js';
import { SearchCompletion } from './search/search-completion.js';
import { DeadlineSweeper } from './search/deadline-sweeper.js';
import { FanOutUseCase } from './search/fan-out.usecase.js';
import { CursorCodec, SearchCursorCodec } from '@jobs/cursors';
import { NextPageUseCase } from './search/next-page.usecase.js';
import { ResultSetStore } from './search/result-sets.store.js';
import { SearchConsumer } from './search/search.consumer.js';
import { SearchStateStore } from './search/search-state.store.js';
import { StartSearchUseCase } from './search/start-search.usecase.js';
import { OrchestratorQueriesConsumer } from './queries/orchestrator-queries.consumer.js';
import { WebhookUrlUsageUseCase } from './webhook-urls/webhook-url-usage.usecase.js';
import { ManageWatchesUseCase, WATCH_CURSOR_CODEC } from './watches/manage-watches.usecase.js';
import { MatchChangesUseCase } from './watches/match-changes.usecase.js';
import { WatchMatcherConsumer } from './watches/watch-matcher.consumer.js';
import { WatchStore } from './watches/watch.store.js';
import { WatchIndex } from './watches/watch-index.js';
import { OutboxModule } from '@jobs/outbox';
import { ApplyChargeUseCase } from './async-search/apply-charge.usecase.js';
import { AsyncSearchConsumer } from './async-search/async-search.consumer.js';
import { AsyncSearchSteps } from './async-search/async-search.steps.js';
import { AsyncSearchSweeper } from './async-search/async-search-sweeper.js';
import { AsyncPipelineProbe } from './async-search/async-pipeline.probe.js';
import { CollectChunkUseCase } from './async-search/collect-chunk.usecase.js';
import { CreateAsyncSearchUseCase } from './async-search/create-async-search.usecase.js';
import { ASYNC_CURSOR_CODEC, ReadAsyncSearchUseCase } from './async-search/read-async-search.usecase.js';
import { ResumeSearchesUseCase } from './async-search/resume-searches.usecase.js';
import { ASYNC_SEARCH_POOL } from './async-search/async-search-pool.js';

@Module({})
export class OrchestratorModule {
  static forRoot(config: OrchestratorConfig): DynamicModule {
    return {
      module: OrchestratorModule,
      imports: [
        PrismaModule.forRoot({ url: config.DATABASE_URL }),
        RedisModule.forRoot(config.REDIS_URL),
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          groupId: 'search-orchestrator',
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
          // Async collection in a group of its own: a chunk's answer never waits in a fetch behind
          // a batch of job.lifecycle.changed (a 10,000-job search makes as many), nor they behind it.
          backgroundGroups: [
            {
              suffix: 'async',
              topics: [Topics.AsyncChunkDeduplicated, Topics.AsyncChunkCharged],
              partitionsConsumedConcurrently: 4,
            },
          ],
        }),
        // async searches stage their chunk requests, charges and events with their state
        OutboxModule,
      ],
      controllers: [SearchConsumer, OrchestratorQueriesConsumer, WatchMatcherConsumer, AsyncSearchConsumer],
      providers: [
        SearchStateStore,
        StartSearchUseCase,
        CollectBatchUseCase,
        GatheredResult,
        SearchAnswers,
        SearchCompletion,
        AnswerFirstPageUseCase,
        ExtendResultSetUseCase,
        AnswerEstimateUseCase,
        DeadlineSweeper,
        FanOutUseCase,
        NextPageUseCase,
        ResultSetStore,
        // reads back the next_cursor billing mints (the same codec and CURSOR_SECRET)
        { provide: SearchCursorCodec, useValue: new SearchCursorCodec(config.CURSOR_SECRET) },
        // Watches: store, CRUD, the in-memory index and the matcher.
        WatchStore,
        WatchIndex,
        ManageWatchesUseCase,
        MatchChangesUseCase,
        // The webhook URLs watches and async searches deliver to (GET /v1/webhook_endpoints).
        WebhookUrlUsageUseCase,
        { provide: WATCH_CURSOR_CODEC, useValue: new CursorCodec(config.CURSOR_SECRET) },
        // Async searches: state in PostgreSQL, chunked collection, charges as collected, sweeper.
        AsyncSearchSteps,
        CreateAsyncSearchUseCase,
        ReadAsyncSearchUseCase,
        CollectChunkUseCase,
        ApplyChargeUseCase,
        ResumeSearchesUseCase,
        AsyncSearchSweeper,
        AsyncPipelineProbe,
        { provide: ASYNC_CURSOR_CODEC, useValue: new CursorCodec(config.CURSOR_SECRET) },
        { provide: ASYNC_SEARCH_POOL, useValue: { maxRunning: config.ASYNC_SEARCH_MAX_RUNNING } },
      ],
    };
  }
}
