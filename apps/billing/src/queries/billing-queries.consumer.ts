import { Inject } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type BillingQueryRequested } from '@jobs/contracts';
import { askerGaveUp, PrismaService } from '@jobs/db';
import { QueryAnswers, QueryFailure } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { AddCreditsUseCase } from '../accounts/add-credits.usecase.js';
import { ChargeExpired } from '../charges/account-charges.js';
import { OpenAccountUseCase } from '../accounts/open-account.usecase.js';
import { ChargeCompanyUseCase } from './charge-company.usecase.js';
import { ChargeJobUseCase } from './charge-job.usecase.js';
import { ListLedgerUseCase } from './list-ledger.usecase.js';
import { isMarked, queryChargeMark, topUpMark } from '../charges/billing-marks.js';

@KafkaConsumer()
export class BillingQueriesConsumer {
  constructor(
    private readonly listLedger: ListLedgerUseCase,
    private readonly chargeJob: ChargeJobUseCase,
    private readonly chargeCompany: ChargeCompanyUseCase,
    private readonly openAccount: OpenAccountUseCase,
    private readonly addCredits: AddCreditsUseCase,
    private readonly answers: QueryAnswers,
    private readonly prisma: PrismaService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  @EventPattern(Topics.BillingQueryRequested.name)
  async onQuery(@Payload() message: BillingQueryRequested.Value): Promise<void> {
    const { query } = message;
    // the gateway told its caller to retry: a change made now would be paid for twice
    if (query.kind !== 'ledger.list' && askerGaveUp(message.answer_by)) {
      // made already (a replica that committed it stopped before publishing): its answer is in
      // the outbox, which another replica sends; "nothing was charged" would not be true
      if (await this.alreadyMade(message)) return;
      return this.answerLate(message);
    }
    try {
      // charges and top-ups answer from their own transaction (through the outbox), exactly once
      if (query.kind === 'job.charge') return await this.chargeJob.execute(message, query);
      if (query.kind === 'company.charge') return await this.chargeCompany.execute(message, query);
      if (query.kind === 'credits.add') return await this.addCredits.execute(message, query);
    } catch (error) {
      // it waited (for a connection, for the account's lock) past answer_by: rolled back
      if (error instanceof ChargeExpired) return this.answerLate(message);
      throw error;
    }
    if (query.kind === 'account.open')
      return this.answers.answer(message.query_id, () => this.openAccount.execute(message.account_id, query));
    await this.answers.answer(message.query_id, async () => ({
      kind: 'ledger.list',
      page: await this.listLedger.execute(message.account_id, query),
    }));
  }

  /** Whether this query's charge or top-up was committed (its mark is written with it). */
  private alreadyMade(message: BillingQueryRequested.Value): Promise<boolean> {
    const { kind } = message.query;
    if (kind === 'credits.add') return isMarked(this.prisma, topUpMark(message.query_id));
    if (kind === 'job.charge' || kind === 'company.charge')
      return isMarked(this.prisma, queryChargeMark(message.query_id));
    return Promise.resolve(false);
  }

  private answerLate(message: BillingQueryRequested.Value): Promise<void> {
    const { query } = message;
    this.logger.warn(
      { account_id: message.account_id, query_id: message.query_id, kind: query.kind, answer_by: message.answer_by },
      'billing query reached after its asker stopped waiting: nothing changed',
    );
    return this.answers.answer(message.query_id, async () => {
      throw new QueryFailure('internal_error', 'The request expired before billing took it; nothing was charged.');
    });
  }
}
