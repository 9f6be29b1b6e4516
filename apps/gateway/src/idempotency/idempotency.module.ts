import { Module } from '@nestjs/common';
import { GatewayLiveness } from './gateway-liveness.js';
import { IdempotencyGate } from './idempotency.gate.js';
import { IdempotencyStore } from './idempotency.store.js';
import { SearchAnswersConsumer } from './search-answers.consumer.js';

/** Idempotency-Key on authenticated POSTs; DoorInterceptor runs the gate, main.ts installs the response recorder. */
@Module({
  providers: [GatewayLiveness, IdempotencyStore, IdempotencyGate, SearchAnswersConsumer],
  exports: [IdempotencyStore, IdempotencyGate],
})
export class IdempotencyModule {}
