import { Injectable } from '@nestjs/common';
import { nextCursorPosition } from '@jobs/billing-rules';
import { Topics, type BillingPageChargeRequested, type SearchPageCharged } from '@jobs/contracts';
import { SearchCursorCodec } from '@jobs/cursors';
import { AccountCharges } from './account-charges.js';
import { annotateStage, type StageAttributes } from '@jobs/observability';

/**
 * Charges one page of a search and tells the gateway the outcome, exactly once (see
 * AccountCharges.chargeWithoutLock: the sync search waits for it). The page itself went to the
 * gateway beside this request: billing sees its job ids only, and answers which of them are
 * returned. `max_credits` may cut the page short, so the page's `next_cursor` is minted here,
 * right after the last job returned (`nextCursorPosition`), with `SearchCursorCodec`, which the
 * orchestrator reads it back with.
 */
@Injectable()
export class ChargeSearchPageUseCase {
  constructor(
    private readonly charges: AccountCharges,
    private readonly cursors: SearchCursorCodec,
  ) {}

  async execute(message: BillingPageChargeRequested.Value): Promise<void> {
    const jobIds = message.job_ids;
    // noted inside the charge, set on the stage span after it (Prisma's spans are active inside)
    let outcome: StageAttributes = {};
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
        outcome =
          plan.kind === 'insufficient_credits'
            ? { 'billing.outcome': 'insufficient_credits', 'credits.needed': plan.creditsNeeded }
            : {
                'billing.outcome': 'charged',
                'credits.charged': plan.creditsCharged,
                'page.already_paid': plan.alreadyPaid,
                'credits.remaining': creditsRemaining,
              };
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
    annotateStage({
      'search.id': message.search_id,
      'account.id': message.account_id,
      'billing.mode': message.mode,
      'page.jobs': jobIds.length,
      ...outcome,
    });
  }
}
