import { Global, Module } from '@nestjs/common';
import { OutboxRelay } from './outbox-relay.js';

/** Needs PrismaModule, KafkaModule and the service kit in the application. */
@Global()
@Module({ providers: [OutboxRelay], exports: [OutboxRelay] })
export class OutboxModule {}
