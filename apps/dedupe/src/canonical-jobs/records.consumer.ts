import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type ProviderRecordsFetched } from '@jobs/contracts';
import { DeduplicateWaveUseCase } from './deduplicate-wave.usecase.js';

@KafkaConsumer()
export class RecordsConsumer {
  constructor(
    private readonly deduplicate: DeduplicateWaveUseCase,
    private readonly gate: LiveWorkGate,
  ) {}

  @EventPattern(Topics.ProviderRecordsFetched.name)
  onRecordsFetched(@Payload() message: ProviderRecordsFetched.Value): Promise<void> {
    return this.gate.live(() => this.deduplicate.execute(message));
  }
}
