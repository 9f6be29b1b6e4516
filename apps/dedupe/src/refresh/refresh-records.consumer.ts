import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshRecordsFetched } from '@jobs/contracts';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';

@KafkaConsumer()
export class RefreshRecordsConsumer {
  constructor(private readonly mergeRefresh: MergeRefreshUseCase) {}

  @EventPattern(Topics.RefreshRecordsFetched.name)
  onRefreshRecordsFetched(@Payload() message: RefreshRecordsFetched.Value): Promise<void> {
    return this.mergeRefresh.execute(message);
  }
}
