import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshRequested } from '@jobs/contracts';
import { RefreshPlanner } from './refresh-planner.js';

/** POST /admin/refresh: one pass at once (the topic has one partition: one planner at a time). */
@KafkaConsumer()
export class RefreshConsumer {
  constructor(private readonly planner: RefreshPlanner) {}

  @EventPattern(Topics.RefreshRequested.name)
  async onRefreshRequested(@Payload() message: RefreshRequested.Value): Promise<void> {
    await this.planner.pass(message.refresh_id);
  }
}
