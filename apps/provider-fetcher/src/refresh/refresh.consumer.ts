import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshFetchRequested } from '@jobs/contracts';
import { FetchRefreshUseCase } from './fetch-refresh.usecase.js';

@KafkaConsumer()
export class RefreshConsumer {
  constructor(private readonly fetchRefresh: FetchRefreshUseCase) {}

  @EventPattern(Topics.RefreshFetchRequested.name)
  onRefreshFetchRequested(@Payload() message: RefreshFetchRequested.Value): Promise<void> {
    return this.fetchRefresh.execute(message);
  }
}
