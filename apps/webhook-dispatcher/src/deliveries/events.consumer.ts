import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type EventEmitted } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { KafkaConsumer, LOGGER } from '@jobs/service-kit';
import { StoreEventUseCase } from '../events/store-event.usecase.js';
import { DeliveryWorker } from './delivery-worker.js';

/** Every emitted event: stored in the feed with its first delivery, then the worker is woken. */
@KafkaConsumer()
export class EventsConsumer {
  constructor(
    private readonly storeEvent: StoreEventUseCase,
    private readonly worker: DeliveryWorker,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Topics.EventEmitted.name)
  async onEventEmitted(@Payload() message: EventEmitted.Value): Promise<void> {
    const outcome = await this.storeEvent.execute(message);
    this.logger.info({ event_id: message.event.id, type: message.event.type, account_id: message.account_id, ...outcome }, outcome.stored ? 'event stored' : 'event already stored');
    if (outcome.delivery) this.worker.kick();
  }
}
