import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type BillingQueryRequested } from '@jobs/contracts';
import { QueryAnswers, QueryFailure } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { askerGaveUp } from '../asker-gave-up.js';
import { AddCreditsUseCase } from '../accounts/add-credits.usecase.js';
import { OpenAccountUseCase } from '../accounts/open-account.usecase.js';
import { ChargeCompanyUseCase } from './charge-company.usecase.js';
import { ChargeJobUseCase } from './charge-job.usecase.js';
import { ListLedgerUseCase } from './list-ledger.usecase.js';

@KafkaConsumer()
export class BillingQueriesConsumer {
  constructor(
    private readonly listLedger: ListLedgerUseCase,
    private readonly chargeJob: ChargeJobUseCase,
    private readonly chargeCompany: ChargeCompanyUseCase,
    private readonly openAccount: OpenAccountUseCase,
    private readonly addCredits: AddCreditsUseCase,
    private readonly answers: QueryAnswers,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Topics.BillingQueryRequested.name)
  async onQuery(@Payload() message: BillingQueryRequested.Value): Promise<void> {
    const { query } = message;
    if (query.kind !== 'ledger.list' && askerGaveUp(message.answer_by)) {
      // the gateway told its caller to retry: a change made now would be paid for twice
      this.logger.warn(
        { account_id: message.account_id, query_id: message.query_id, kind: query.kind, answer_by: message.answer_by },
        'billing query reached after its asker stopped waiting: nothing changed',
      );
      return this.answers.answer(message.query_id, async () => {
        throw new QueryFailure('internal_error', 'The request expired before billing took it; nothing was charged.');
      });
    }
    // charges and top-ups answer from their own transaction (through the outbox), exactly once
    if (query.kind === 'job.charge') return this.chargeJob.execute(message, query);
    if (query.kind === 'company.charge') return this.chargeCompany.execute(message, query);
    if (query.kind === 'credits.add') return this.addCredits.execute(message, query);
    if (query.kind === 'account.open')
      return this.answers.answer(message.query_id, () => this.openAccount.execute(message.account_id, query));
    await this.answers.answer(message.query_id, async () => ({
      kind: 'ledger.list',
      page: await this.listLedger.execute(message.account_id, query),
    }));
  }
}
