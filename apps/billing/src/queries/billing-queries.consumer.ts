import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type BillingQueryRequested } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { ChargeCompanyUseCase } from './charge-company.usecase.js';
import { ChargeJobUseCase } from './charge-job.usecase.js';
import { ListLedgerUseCase } from './list-ledger.usecase.js';
import { QueryFailure } from './query-failure.js';

@KafkaConsumer()
export class BillingQueriesConsumer {
  constructor(
    private readonly listLedger: ListLedgerUseCase,
    private readonly chargeJob: ChargeJobUseCase,
    private readonly chargeCompany: ChargeCompanyUseCase,
    private readonly publisher: KafkaPublisher,
  ) {}

  @EventPattern(Topics.BillingQueryRequested.name)
  async onQuery(@Payload() message: BillingQueryRequested.Value): Promise<void> {
    const { query } = message;
    if (query.kind === 'job.charge') return this.chargeJob.execute(message, query);
    if (query.kind === 'company.charge') return this.chargeCompany.execute(message, query);
    try {
      const page = await this.listLedger.execute(message.account_id, query);
      await this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: message.query_id, outcome: 'ok', result: { kind: 'ledger.list', page } });
    } catch (error) {
      if (!(error instanceof QueryFailure)) throw error;
      await this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: message.query_id, outcome: 'error', error: error.toFailure() });
    }
  }
}
