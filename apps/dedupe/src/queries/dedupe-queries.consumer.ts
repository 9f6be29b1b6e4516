import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type DedupeQueryRequested, type QueryResponded } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { GetCompanyProfileUseCase } from '../companies/get-company-profile.usecase.js';
import { GetJobUseCase } from './get-job.usecase.js';

@KafkaConsumer()
export class DedupeQueriesConsumer {
  constructor(
    private readonly getJob: GetJobUseCase,
    private readonly getCompanyProfile: GetCompanyProfileUseCase,
    private readonly publisher: KafkaPublisher,
  ) {}

  @EventPattern(Topics.DedupeQueryRequested.name)
  async onQuery(@Payload() message: DedupeQueryRequested.Value): Promise<void> {
    const { query } = message;
    const answer = (value: Omit<QueryResponded.Value, 'v' | 'query_id'>) => this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: message.query_id, ...value });
    if (query.kind === 'company.profile') {
      const profile = await this.getCompanyProfile.execute(query);
      return profile
        ? answer({ outcome: 'ok', result: { kind: 'company.profile', profile } })
        : answer({ outcome: 'error', error: { code: 'not_found', message: `No company ${query.domain}.` } });
    }
    const job = await this.getJob.execute(query);
    return job
      ? answer({ outcome: 'ok', result: { kind: 'job.get', job } })
      : answer({ outcome: 'error', error: { code: 'not_found', message: `No job ${query.job_id}.` } });
  }
}
