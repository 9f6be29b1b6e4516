import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type ProviderFetchRequested } from '@jobs/contracts';
import { FetchProviderUseCase } from './fetch-provider.usecase.js';

@KafkaConsumer()
export class FetchConsumer {
  constructor(private readonly fetchProvider: FetchProviderUseCase) {}

  @EventPattern(Topics.ProviderFetchRequested.name)
  onFetchRequested(@Payload() message: ProviderFetchRequested.Value): Promise<void> {
    return this.fetchProvider.execute(message);
  }
}
