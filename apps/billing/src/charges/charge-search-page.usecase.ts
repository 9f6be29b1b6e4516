import { Inject, Injectable } from '@nestjs/common';
import { nextCursorPosition } from '@jobs/billing-rules';
import { Topics, type BillingPageChargeRequested, type SearchPageCharged } from '@jobs/contracts';
import { SearchCursorCodec } from '@jobs/cursors';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { LOGGER } from '@jobs/service-kit';
import { AccountCharges, ChargeExpired } from './account-charges.js';
import { annotateStage, type Logger, type StageAttributes } from '@jobs/observability';

/**
 * Charges one page of a search and tells the gateway the outcome, exactly once (see
 * AccountCharges.chargeWithoutLock: the sync search waits for it). The page itself went to the
 * gateway beside this request: billing sees its job ids only, and answers which of them are
 * returned. `max_credits` may cut the page short, so the page's `next_cursor` is minted here,
 * right after the last job returned (`nextCursorPosition`), with `SearchCursorCodec`, which the
 * orchestrator reads it back with.
 *
 * A page that reaches billing after its `answer_by` is not charged: the gateway has answered
 * `internal_error` and the caller retries; billing answers `expired`, so a retry under the same
 * Idempotency-Key runs the search again at once instead of waiting for a charge that never comes.
 */
@Injectable()
export class ChargeSearchPageUseCase {
  constructor(
    private readonly charges: AccountCharges,
    private readonly cursors: SearchCursorCodec,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: BillingPageChargeRequested.Value): Promise<void> {
    const jobIds = message.job_ids;
    // noted inside the charge, set on the stage span after it (Prisma's spans are active inside)
    let outcome: StageAttributes = {};
    try {
      await this.charge(message, (attributes) => (outcome = attributes));
    } catch (error) {
      if (!(error instanceof ChargeExpired)) throw error;
      outcome = { 'billing.outcome': 'expired' };
      await this.answerExpired(message, error.creditsRemaining);
    }
    annotateStage({
      'search.id': message.search_id,
      'account.id': message.account_id,
      'billing.mode': message.mode,
      'page.jobs': jobIds.length,
      ...outcome,
    });
  }

  private async charge(
    message: BillingPageChargeRequested.Value,
    noteOutcome: (attributes: StageAttributes) => void,
  ): Promise<void> {
    const jobIds = message.job_ids;
    await this.charges.chargeWithoutLock(
      {
        chargeKey: `charge:${message.search_id}`,
        kind: 'search',
        accountId: message.account_id,
        requestId: message.request_id,
        operation: message.operation,
        jobIds,
        maxCredits: message.max_credits,
        mode: message.mode,
        answerBy: message.answer_by,
      },
      async (plan, creditsRemaining, stage) => {
        const reply = (value: Omit<SearchPageCharged.Value, 'v' | 'search_id' | 'request_id' | 'credits_remaining'>) =>
          stage(Topics.SearchPageCharged, {
            v: 1,
            search_id: message.search_id,
            request_id: message.request_id,
            ...value,
            credits_remaining: creditsRemaining,
          });
        noteOutcome(
          plan.kind === 'insufficient_credits'
            ? { 'billing.outcome': 'insufficient_credits', 'credits.needed': plan.creditsNeeded }
            : {
                'billing.outcome': 'charged',
                'credits.charged': plan.creditsCharged,
                'page.already_paid': plan.alreadyPaid,
                'credits.remaining': creditsRemaining,
              },
        );
        if (plan.kind === 'insufficient_credits') {
          await reply({
            outcome: 'error',
            error: {
              code: 'insufficient_credits',
              message: `This search needs ${plan.creditsNeeded} more credits.`,
              credits_needed: plan.creditsNeeded,
            },
            credits_charged: 0,
          });
          return;
        }
        const returned = new Set(message.mode === 'test' ? jobIds : plan.lines.map((l) => l.jobId));
        const next = nextCursorPosition({
          continuation: message.continuation,
          pageJobIds: jobIds,
          returnedJobIds: returned,
        });
        await reply({
          outcome: 'ok',
          charge: {
            returned_job_ids: jobIds.filter((id) => returned.has(id)),
            next_cursor: next ? this.cursors.mint(message.account_id, next) : null,
            jobs_already_paid: plan.alreadyPaid,
          },
          credits_charged: plan.creditsCharged,
        });
      },
    );
  }

  /**
   * Straight to Kafka, not through the outbox: nothing was written to keep it beside, and a
   * redelivery is refused again (the charge's mark was never written).
   */
  private async answerExpired(message: BillingPageChargeRequested.Value, creditsRemaining: number): Promise<void> {
    this.logger.warn(
      { account_id: message.account_id, search_id: message.search_id, answer_by: message.answer_by },
      'search page reached billing after its asker stopped waiting: nothing charged',
    );
    await this.publisher.publish(Topics.SearchPageCharged, {
      v: 1,
      search_id: message.search_id,
      request_id: message.request_id,
      outcome: 'expired',
      credits_charged: 0,
      credits_remaining: creditsRemaining,
    });
  }
}
