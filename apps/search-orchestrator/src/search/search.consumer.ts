import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type SearchRecordsDeduplicated, type SearchRequested } from '@jobs/contracts';
import { CollectBatchUseCase } from './collect-batch.usecase.js';
import { StartSearchUseCase } from './start-search.usecase.js';

@KafkaConsumer()
export class SearchConsumer {
  constructor(
    private readonly startSearch: StartSearchUseCase,
    private readonly collectBatch: CollectBatchUseCase,
  ) {}

  @EventPattern(Topics.SearchRequested.name)
  onSearchRequested(@Payload() message: SearchRequested.Value): Promise<void> {
    return this.startSearch.execute(message);
  }

  @EventPattern(Topics.SearchRecordsDeduplicated.name)
  onRecordsDeduplicated(@Payload() message: SearchRecordsDeduplicated.Value): Promise<void> {
    return this.collectBatch.execute(message);
  }
}
