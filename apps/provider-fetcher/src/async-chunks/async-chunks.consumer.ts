import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type AsyncChunkRequested } from '@jobs/contracts';
import { FetchChunkUseCase } from './fetch-chunk.usecase.js';

@KafkaConsumer()
export class AsyncChunksConsumer {
  constructor(private readonly fetchChunk: FetchChunkUseCase) {}

  @EventPattern(Topics.AsyncChunkRequested.name)
  onChunkRequested(@Payload() message: AsyncChunkRequested.Value): Promise<void> {
    return this.fetchChunk.execute(message);
  }
}
