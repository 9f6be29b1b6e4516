import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type DedupeQueryRequested } from '@jobs/contracts';
import { QueryAnswers, QueryFailure } from '@jobs/nest-kafka';
import { BuildCompanyProfileUseCase } from '../companies/build-company-profile.usecase.js';
import { ReadStoredJobUseCase } from './read-stored-job.usecase.js';

@KafkaConsumer()
export class DedupeQueriesConsumer {
  constructor(
    private readonly getJob: ReadStoredJobUseCase,
    private readonly getCompanyProfile: BuildCompanyProfileUseCase,
    private readonly answers: QueryAnswers,
    private readonly gate: LiveWorkGate,
  ) {}

  @EventPattern(Topics.DedupeQueryRequested.name)
  async onQuery(@Payload() message: DedupeQueryRequested.Value): Promise<void> {
    const { query } = message;
    await this.gate.live(() =>
      this.answers.answer(message.query_id, async () => {
        if (query.kind === 'company.profile') {
          const profile = await this.getCompanyProfile.execute(query);
          if (!profile) throw new QueryFailure('not_found', `No company ${query.domain}.`);
          return { kind: 'company.profile', profile };
        }
        const job = await this.getJob.execute(query);
        if (!job) throw new QueryFailure('not_found', `No job ${query.job_id}.`);
        return { kind: 'job.get', job };
      }),
    );
  }
}
