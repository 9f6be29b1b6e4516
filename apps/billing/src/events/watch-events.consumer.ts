import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type EventChargeRequested } from '@jobs/contracts';
import { PaidJobUpdatesUseCase } from './paid-job-updates.usecase.js';
import { WatchEventChargesUseCase } from './watch-event-charges.usecase.js';

@KafkaConsumer()
export class WatchEventsConsumer {
  constructor(
    private readonly watchEvents: WatchEventChargesUseCase,
    private readonly updates: PaidJobUpdatesUseCase,
  ) {}

  /**
   * job.opened is charged (or held); job.updated goes out only to an account that paid for the
   * job; job.closed drops the job's held job.opened, then goes out; a stopped watch's held events
   * are dropped, and those made before the stop that arrive after it; credits that rose release
   * the held events, behind the stops and closings queued before them.
   */
  @EventPattern(Topics.EventChargeRequested.name)
  async onEventChargeRequested(@Payload() message: EventChargeRequested.Value): Promise<void> {
    if ('watch_stopped' in message) {
      await this.watchEvents.dropStopped(message);
      return;
    }
    if ('held_opening_ended' in message) {
      await this.watchEvents.dropEnded(message);
      return;
    }
    if ('release_held' in message) {
      await this.watchEvents.releaseAll(message.account_id);
      return;
    }
    const { event } = message;
    if (event.type === 'job.updated')
      await this.updates.forward({
        accountId: message.account_id,
        event,
        webhookUrl: message.webhook_url,
        leftScope: message.left_scope === true,
        heldOnly: message.held_only === true,
      });
    else if (event.type === 'job.closed') await this.watchEvents.forwardClosed({ ...message, event });
    else await this.watchEvents.charge({ ...message, event });
  }
}
