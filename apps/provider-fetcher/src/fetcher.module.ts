import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { KafkaModule } from '@jobs/nest-kafka';
import { BoardReader, createProviderAdapters } from '@jobs/provider-adapters';
import { RedisModule } from '@jobs/redis';
import { BreakerReportsPublisher } from './breakers/breaker-reports.publisher.js';
import type { FetcherConfig } from './config.js';
import { FetchConsumer } from './fetch/fetch.consumer.js';
import { PROVIDER_ADAPTERS, ProviderCalls } from './calls/provider-calls.js';
import { FetchWaveUseCase } from './fetch/fetch-wave.usecase.js';
import { boardFetch } from './refresh/board-fetch.js';
import { FetchRefreshUseCase } from './refresh/fetch-refresh.usecase.js';
import { BOARD_READER, ReadBoardUseCase } from './refresh/read-board.usecase.js';
import { RefreshConsumer } from './refresh/refresh.consumer.js';
import { AsyncChunksConsumer } from './async-chunks/async-chunks.consumer.js';
import { FetchChunkUseCase } from './async-chunks/fetch-chunk.usecase.js';

@Module({})
export class FetcherModule {
  static forRoot(config: FetcherConfig): DynamicModule {
    return {
      module: FetcherModule,
      imports: [
        // Breaker states for the gateway's provider status (BreakerReportsPublisher).
        RedisModule.forRoot(config.REDIS_URL),
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          groupId: 'provider-fetcher',
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
          // A wave waits on the network for its slowest partner (half a second): handled apart
          // from the fetch loop, many at once, so a search's fetch request is taken the moment
          // it arrives instead of after the waves fetched before it are done.
          partitionsConsumedConcurrently: 12,
          detachedInFlight: 64,
          // Sweeps (seconds each) in groups of their own: a live search's fetch is never fetched
          // from Kafka only after a sweep's batch is done, nor a pass's sweep after a round's
          // (`provider-fetcher.refresh`: rounds; `provider-fetcher.passes`: passes). Detached, so
          // a silent provider's sweep (up to its call deadline) or its rounds waiting for their
          // places never hold the sweeps of a provider behind them on the same partition: a
          // round's sweeps wait in their provider's pacer, a few hundred bytes each. The own
          // crawler's board sweeps have a group of their own (`provider-fetcher.boards`): boards
          // waiting for their ATS host's request slots never hold a partner's pass sweep, and at
          // most 64 at once, so the rest wait in Kafka, where their sweep budget has not begun.
          backgroundGroups: [
            {
              suffix: 'refresh',
              topics: [Topics.RefreshFetchRequested],
              partitionsConsumedConcurrently: 12,
              detachedInFlight: 4_096,
            },
            {
              suffix: 'passes',
              topics: [Topics.RefreshPassFetchRequested],
              partitionsConsumedConcurrently: 12,
              detachedInFlight: 64,
            },
            {
              suffix: 'boards',
              topics: [Topics.RefreshBoardFetchRequested],
              partitionsConsumedConcurrently: 12,
              detachedInFlight: 64,
            },
            // Async search chunks (a chunk's pages side by side, up to a second each): a sync fetch
            // never waits for a chunk's batch, and one search's providers read side by side.
            // Detached: a chunk of a partner that hangs holds its own place up to its timeout_ms
            // (30 s at most), never the fetch of every other account's chunks behind it. A leg has
            // one chunk out at a time, so a partition's chunks need no order among themselves.
            {
              suffix: 'async',
              topics: [Topics.AsyncChunkRequested],
              partitionsConsumedConcurrently: 12,
              detachedInFlight: 64,
            },
          ],
        }),
      ],
      controllers: [FetchConsumer, RefreshConsumer, AsyncChunksConsumer],
      providers: [
        { provide: PROVIDER_ADAPTERS, useValue: createProviderAdapters(config.PROVIDER_SIM_URL) },
        ProviderCalls,
        FetchWaveUseCase,
        FetchRefreshUseCase,
        {
          provide: BOARD_READER,
          useValue: new BoardReader({
            userAgent: config.CRAWLER_USER_AGENT,
            perHostConcurrency: config.CRAWLER_HOST_CONCURRENCY,
            fetch: boardFetch(config.WEBHOOK_ALLOW_PRIVATE),
          }),
        },
        ReadBoardUseCase,
        FetchChunkUseCase,
        BreakerReportsPublisher,
      ],
    };
  }
}
