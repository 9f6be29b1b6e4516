import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshRequested } from '@jobs/contracts';
import { RefreshPlanner } from './refresh-planner.js';

/** POST /admin/refresh: a pass now (or right after the one under way). */
@KafkaConsumer()
export class RefreshRequestedConsumer {
  constructor(private readonly planner: RefreshPlanner) {}

  @EventPattern(Topics.RefreshRequested.name)
  onRefreshRequested(@Payload() message: RefreshRequested.Value): Promise<void> {
    return this.planner.request(message.refresh_id, new Date(message.requested_at));
  }
}
