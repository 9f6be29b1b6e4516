import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type AccountCreditsAdded, type EventChargeRequested } from '@jobs/contracts';
import { WatchEventChargesUseCase } from './watch-event-charges.usecase.js';

@KafkaConsumer()
export class WatchEventsConsumer {
  constructor(private readonly watchEvents: WatchEventChargesUseCase) {}

  @EventPattern(Topics.EventChargeRequested.name)
  onEventChargeRequested(@Payload() message: EventChargeRequested.Value): Promise<void> {
    return this.watchEvents.charge(message);
  }

  /** A top-up releases the account's held job.opened events. */
  @EventPattern(Topics.AccountCreditsAdded.name)
  async onCreditsAdded(@Payload() message: AccountCreditsAdded.Value): Promise<void> {
    await this.watchEvents.release(message.account_id);
  }
}
