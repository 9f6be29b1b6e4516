import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { IdempotencyModule } from '../idempotency/idempotency.module.js';
import { SandboxModule } from '../sandbox/sandbox.module.js';
import { RunSyncSearchUseCase } from './run-sync-search.usecase.js';
import { SearchReplies } from './search-replies.js';
import { SearchRepliesConsumer } from './search-replies.consumer.js';
import { SearchController } from './search.controller.js';

@Module({
  imports: [AccountModule, IdempotencyModule, SandboxModule],
  controllers: [SearchController, SearchRepliesConsumer],
  providers: [SearchReplies, RunSyncSearchUseCase],
})
export class SearchModule {}
