import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type DedupeQueryRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { GetJobUseCase } from './get-job.usecase.js';

@KafkaConsumer()
export class DedupeQueriesConsumer {
  constructor(
    private readonly getJob: GetJobUseCase,
    private readonly publisher: KafkaPublisher,
  ) {}

  @EventPattern(Topics.DedupeQueryRequested.name)
  async onQuery(@Payload() message: DedupeQueryRequested.Value): Promise<void> {
    const job = await this.getJob.execute(message.query);
    await this.publisher.publish(
      Topics.QueryResponded,
      job
        ? { v: 1, query_id: message.query_id, outcome: 'ok', result: { kind: 'job.get', job } }
        : { v: 1, query_id: message.query_id, outcome: 'error', error: { code: 'not_found', message: `No job ${message.query.job_id}.` } },
    );
  }
}
