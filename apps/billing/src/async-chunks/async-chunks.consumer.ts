import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type AsyncChunkChargeRequested } from '@jobs/contracts';
import { ChargeAsyncChunkUseCase } from './charge-async-chunk.usecase.js';

@KafkaConsumer()
export class AsyncChunksConsumer {
  constructor(private readonly chargeAsyncChunk: ChargeAsyncChunkUseCase) {}

  @EventPattern(Topics.AsyncChunkChargeRequested.name)
  onChargeRequested(@Payload() message: AsyncChunkChargeRequested.Value): Promise<void> {
    return this.chargeAsyncChunk.execute(message);
  }
}
