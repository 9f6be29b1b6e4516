import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshRequested } from '@jobs/contracts';
import { RefreshPlanner } from './refresh-planner.js';

/** POST /admin/refresh: each provider's pass and round now (or right after the one under way). */
@KafkaConsumer()
export class RefreshRequestedConsumer {
  constructor(private readonly planner: RefreshPlanner) {}

  @EventPattern(Topics.RefreshRequested.name)
  onRefreshRequested(@Payload() message: RefreshRequested.Value): Promise<void> {
    // stamped on arrival, by the clock the planner starts passes by (the gateway's may differ)
    return this.planner.request(message.refresh_id);
  }
}
