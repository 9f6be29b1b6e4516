import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type ProviderRecordsFetched } from '@jobs/contracts';
import { DeduplicateBatchUseCase } from './deduplicate-batch.usecase.js';

@Controller()
export class RecordsConsumer {
  constructor(private readonly deduplicate: DeduplicateBatchUseCase) {}

  @EventPattern(Topics.ProviderRecordsFetched.name)
  onRecordsFetched(@Payload() message: ProviderRecordsFetched.Value): Promise<void> {
    return this.deduplicate.execute(message);
  }
}
