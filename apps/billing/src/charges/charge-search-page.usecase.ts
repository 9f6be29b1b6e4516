import { Inject, Injectable } from '@nestjs/common';
import { nextCursorPosition } from '@jobs/billing-rules';
import { searchCursorScope, Topics, type BillingChargeRequested, type SearchResponded } from '@jobs/contracts';
import { CursorCodec } from '@jobs/cursors';
import { fieldCoverage } from '@jobs/search-metadata';
import { CURSOR_CODEC } from '../queries/list-ledger.usecase.js';
import { AccountCharges } from './account-charges.js';
import { annotateStage, type StageAttributes } from '@jobs/observability';

/**
 * Charges one page of a search and answers the gateway, exactly once (see AccountCharges).
 * `max_credits` may cut the page short, so the page's `next_cursor` is minted here, right after
 * the last job returned (`nextCursorPosition`), with the orchestrator's codec, secret and scope.
 */
@Injectable()
export class ChargeSearchPageUseCase {
  constructor(
    private readonly charges: AccountCharges,
    @Inject(CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  async execute(message: BillingChargeRequested.Value): Promise<void> {
    const jobIds = message.response.data.map((job) => job.id);
    // noted inside the transaction, set on the stage span after it (Prisma's spans are active inside)
    let outcome: StageAttributes = {};
    await this.charges.charge(
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
      async (_tx, plan, creditsRemaining, stage) => {
        const reply = (value: Omit<SearchResponded.Value, 'v' | 'search_id' | 'request_id'>) =>
          stage(Topics.SearchResponded, { v: 1, search_id: message.search_id, request_id: message.request_id, ...value });
        outcome = plan.kind === 'insufficient_credits'
          ? { 'billing.outcome': 'insufficient_credits', 'credits.needed': plan.creditsNeeded }
          : { 'billing.outcome': 'charged', 'credits.charged': plan.creditsCharged, 'page.already_paid': plan.alreadyPaid, 'credits.remaining': creditsRemaining };
        if (plan.kind === 'insufficient_credits') {
          await reply({
            outcome: 'error',
            error: { code: 'insufficient_credits', message: `This search needs ${plan.creditsNeeded} more credits.`, credits_needed: plan.creditsNeeded },
            credits_charged: 0,
            credits_remaining: creditsRemaining,
          });
          return;
        }
        const returned = new Set(message.mode === 'test' ? jobIds : plan.lines.map((l) => l.jobId));
        const next = nextCursorPosition({ continuation: message.continuation, pageJobIds: jobIds, returnedJobIds: returned });
        const data = message.response.data.filter((job) => returned.has(job.id));
        await reply({
          outcome: 'ok',
          response: {
            data,
            next_cursor: next ? this.cursors.encode(searchCursorScope(message.account_id), next) : null,
            metadata: {
              ...message.response.metadata,
              // the cap may have cut the page: coverage describes the jobs returned
              field_coverage: data.length === jobIds.length ? message.response.metadata.field_coverage : fieldCoverage(data),
              credits_charged: plan.creditsCharged,
              jobs_already_paid: plan.alreadyPaid,
              credits_remaining: creditsRemaining,
            },
          },
          credits_charged: plan.creditsCharged,
          credits_remaining: creditsRemaining,
        });
      },
    );
    annotateStage({ 'search.id': message.search_id, 'account.id': message.account_id, 'billing.mode': message.mode, 'page.jobs': jobIds.length, ...outcome });
  }
}
