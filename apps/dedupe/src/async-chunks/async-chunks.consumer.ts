import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type AsyncChunkFetched } from '@jobs/contracts';
import { DeduplicateChunkUseCase } from './deduplicate-chunk.usecase.js';

@KafkaConsumer()
export class AsyncChunksConsumer {
  constructor(
    private readonly deduplicateChunk: DeduplicateChunkUseCase,
    private readonly gate: LiveWorkGate,
  ) {}

  @EventPattern(Topics.AsyncChunkFetched.name)
  onChunkFetched(@Payload() message: AsyncChunkFetched.Value): Promise<void> {
    return this.gate.live(() => this.deduplicateChunk.execute(message));
  }
}
