import { Module } from '@nestjs/common';
import { SecretBox } from '@jobs/webhook-targets';
import { AccountModule } from '../account/account.module.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { GatewayLiveness } from './gateway-liveness.js';
import { IdempotencyGate } from './idempotency.gate.js';
import { IdempotencyStore } from './idempotency.store.js';
import { ReplaySealer } from './replay-sealer.js';
import { SearchAnswersConsumer } from './search-answers.consumer.js';

/** Idempotency-Key on authenticated POSTs; DoorInterceptor runs the gate, main.ts installs the response recorder. */
@Module({
  imports: [AccountModule],
  providers: [
    GatewayLiveness,
    IdempotencyStore,
    IdempotencyGate,
    SearchAnswersConsumer,
    {
      provide: ReplaySealer,
      inject: [GATEWAY_CONFIG],
      useFactory: (config: GatewayConfig) => new ReplaySealer(new SecretBox(config.WEBHOOK_SECRETS_KEY)),
    },
  ],
  exports: [IdempotencyStore, IdempotencyGate, ReplaySealer],
})
export class IdempotencyModule {}
