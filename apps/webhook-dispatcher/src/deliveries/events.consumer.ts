import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type EventEmitted } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { KafkaConsumer, LOGGER } from '@jobs/service-kit';

/**
 * Receives every emitted event. The foundation only acknowledges them; signed deliveries,
 * the retry schedule and replay arrive with the webhook work (issue 5).
 */
@KafkaConsumer()
export class EventsConsumer {
  constructor(@Inject(LOGGER) private readonly logger: Logger) {}

  @EventPattern(Topics.EventEmitted.name)
  onEventEmitted(@Payload() message: EventEmitted.Value): void {
    this.logger.info({ event_id: message.event.id, type: message.event.type }, 'event received');
  }
}
