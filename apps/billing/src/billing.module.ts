import { type DynamicModule, Module } from '@nestjs/common';
import { Topics, ALL_TOPICS } from '@jobs/contracts';
import { PrismaModule } from '@jobs/db';
import { KafkaModule } from '@jobs/nest-kafka';
import { OutboxModule } from '@jobs/outbox';
import { ChargeSearchPageUseCase } from './charges/charge-search-page.usecase.js';
import { AccountCharges } from './charges/account-charges.js';
import { ChargesConsumer } from './charges/charges.consumer.js';
import { CursorCodec, SearchCursorCodec } from '@jobs/cursors';
import { BillingQueriesConsumer } from './queries/billing-queries.consumer.js';
import { ChargeJobUseCase } from './queries/charge-job.usecase.js';
import { ChargeCompanyUseCase } from './queries/charge-company.usecase.js';
import { CURSOR_CODEC, ListLedgerUseCase } from './queries/list-ledger.usecase.js';
import { BILLING_CONFIG, type BillingConfig } from './config.js';
import { ProcessedMarksPruner } from './charges/processed-marks-pruner.js';
import { AsyncChunksConsumer } from './async-chunks/async-chunks.consumer.js';
import { ChargeAsyncChunkUseCase } from './async-chunks/charge-async-chunk.usecase.js';
import { WatchEventChargesUseCase } from './events/watch-event-charges.usecase.js';
import { WatchEventsConsumer } from './events/watch-events.consumer.js';
import { PaidJobUpdatesUseCase } from './events/paid-job-updates.usecase.js';
import { AddCreditsUseCase } from './accounts/add-credits.usecase.js';
import { OpenAccountUseCase } from './accounts/open-account.usecase.js';
import { CreditResets } from './accounts/credit-resets.js';

@Module({})
export class BillingModule {
  static forRoot(config: BillingConfig): DynamicModule {
    return {
      module: BillingModule,
      imports: [
        PrismaModule.forRoot({ url: config.DATABASE_URL }),
        KafkaModule.forRoot({
          brokers: config.KAFKA_BROKERS,
          groupId: 'billing',
          topology: ALL_TOPICS,
          deadLetterTopic: Topics.DeadLetter,
        }),
        OutboxModule,
      ],
      controllers: [ChargesConsumer, BillingQueriesConsumer, WatchEventsConsumer, AsyncChunksConsumer],
      providers: [
        AccountCharges,
        ChargeAsyncChunkUseCase,
        ChargeSearchPageUseCase,
        ChargeJobUseCase,
        ChargeCompanyUseCase,
        ListLedgerUseCase,
        WatchEventChargesUseCase,
        PaidJobUpdatesUseCase,
        OpenAccountUseCase,
        AddCreditsUseCase,
        CreditResets,
        ProcessedMarksPruner,
        { provide: BILLING_CONFIG, useValue: config },
        { provide: CURSOR_CODEC, useValue: new CursorCodec(config.CURSOR_SECRET) },
        // mints a sync search's next_cursor, which the orchestrator reads back (same codec and CURSOR_SECRET)
        { provide: SearchCursorCodec, useValue: new SearchCursorCodec(config.CURSOR_SECRET) },
      ],
    };
  }
}
