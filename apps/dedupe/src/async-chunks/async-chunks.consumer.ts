import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type AsyncChunkFetched } from '@jobs/contracts';
import { DeduplicateChunkUseCase } from './deduplicate-chunk.usecase.js';

@KafkaConsumer()
export class AsyncChunksConsumer {
  constructor(private readonly deduplicateChunk: DeduplicateChunkUseCase) {}

  @EventPattern(Topics.AsyncChunkFetched.name)
  onChunkFetched(@Payload() message: AsyncChunkFetched.Value): Promise<void> {
    return this.deduplicateChunk.execute(message);
  }
}
