import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { context, propagation } from '@opentelemetry/api';
import { Topics, type EventEmitted } from '@jobs/contracts';
import { isDeterministicFailure } from '@jobs/kafka';
import { annotateStage, requestContext, type Logger } from '@jobs/observability';
import { KafkaConsumer, LOGGER } from '@jobs/service-kit';
import { StoreEventUseCase, type IncomingEvent, type StoredEvent } from '../events/store-event.usecase.js';
import { DeliveryWorker } from './delivery-worker.js';
import { GroupCommit } from './group-commit.js';

/** Events stored in one transaction at most (a fetched batch's handlers run together: dispatcher.module). */
const STORE_BATCH = 500;

/**
 * Every emitted event: stored in the feed with its first delivery, then the worker is woken.
 * The handlers of a fetched batch run together and their events are stored in one transaction
 * (group commit); each message's offset is committed only once its event is stored.
 */
@KafkaConsumer()
export class EventsConsumer {
  private readonly intake: GroupCommit<IncomingEvent, StoredEvent>;

  constructor(
    storeEvent: StoreEventUseCase,
    private readonly worker: DeliveryWorker,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    // one event the database refuses (bad data) is that event's dead letter alone, not its batch's
    this.intake = new GroupCommit((events) => storeEvent.storeMany(events), STORE_BATCH, isDeterministicFailure);
  }

  @EventPattern(Topics.EventEmitted.name)
  async onEventEmitted(@Payload() message: EventEmitted.Value): Promise<void> {
    annotateStage({
      'account.id': message.account_id,
      'event.id': message.event.id,
      'event.type': message.event.type,
      'event.has_webhook': message.webhook_url !== null,
    });
    // The consumer span's context: the delivery's attempts continue this trace.
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    const outcome = await this.intake.submit({
      message,
      traceParent: carrier['traceparent'] ?? null,
      requestId: requestContext.current()?.requestId ?? null,
    });
    // The feed is the record of a stored event, and each delivery attempt logs its own line; a
    // redelivered event (already stored) is the one worth an operator's eye.
    this.logger[outcome.stored ? 'debug' : 'info'](
      { event_id: message.event.id, type: message.event.type, account_id: message.account_id, ...outcome },
      outcome.stored ? 'event stored' : 'event already stored',
    );
    if (outcome.delivery) this.worker.kick();
  }
}
