import { Module } from '@nestjs/common';
import { IdempotencyInterceptor } from './idempotency.interceptor.js';
import { IdempotencyStore } from './idempotency.store.js';
import { SearchAnswersConsumer } from './search-answers.consumer.js';

/** Idempotency-Key on authenticated POSTs; main.ts installs the interceptor and the response recorder. */
@Module({
  providers: [IdempotencyStore, IdempotencyInterceptor, SearchAnswersConsumer],
  exports: [IdempotencyStore, IdempotencyInterceptor],
})
export class IdempotencyModule {}
