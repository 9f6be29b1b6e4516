import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type ProviderFetchRequested } from '@jobs/contracts';
import { FetchWaveUseCase } from './fetch-wave.usecase.js';

@KafkaConsumer()
export class FetchConsumer {
  constructor(private readonly fetchWave: FetchWaveUseCase) {}

  @EventPattern(Topics.ProviderFetchRequested.name)
  onFetchRequested(@Payload() message: ProviderFetchRequested.Value): Promise<void> {
    return this.fetchWave.execute(message);
  }
}
