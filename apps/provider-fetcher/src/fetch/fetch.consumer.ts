import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ProviderFetchRequested } from '@jobs/contracts';
import { FetchProviderUseCase } from './fetch-provider.usecase.js';

@Controller()
export class FetchConsumer {
  constructor(private readonly fetchProvider: FetchProviderUseCase) {}

  @EventPattern(Topics.ProviderFetchRequested.name)
  onFetchRequested(@Payload() message: ProviderFetchRequested.Value): Promise<void> {
    return this.fetchProvider.execute(message);
  }
}
