import { Inject, Injectable } from '@nestjs/common';
import { Topics, type JobSearchRequest, type JobSearchResult } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { planRequiredRefusal, providersForPlan } from '@jobs/plans';
import { AccountBalances } from '../account/account-balances.js';
import type { Principal } from '../auth/api-key.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { IdempotencyStore } from '../idempotency/idempotency.store.js';
import { RunSandboxSearchUseCase } from '../sandbox/run-sandbox-search.usecase.js';
import { answerBy } from '../messaging/answer-by.js';
import { ReplyTimeout } from '../messaging/pending-replies.js';
import { SearchReplies } from './search-replies.js';
import { annotateStage } from '@jobs/observability';

export interface SyncSearchResult {
  body: JobSearchResult;
  creditsCharged: number;
  creditsRemaining: number;
}

/**
 * POST /v1/jobs/search: hands the search to the pipeline over Kafka and waits for its answer
 * (orchestrator → fetcher → dedupe → orchestrator → billing → here).
 */
@Injectable()
export class RunSyncSearchUseCase {
  constructor(
    private readonly balances: AccountBalances,
    private readonly publisher: KafkaPublisher,
    private readonly replies: SearchReplies,
    private readonly sandbox: RunSandboxSearchUseCase,
    private readonly idempotency: IdempotencyStore,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * The search goes out before any database read: the account and its plan come with the key
   * (fixed at the account's creation, cached with it), and billing answers with the balance; it
   * is read here only for the answers billing does not see (sandbox, dry run).
   */
  async execute(
    principal: Principal,
    request: JobSearchRequest,
    requestId: string,
    { admissionWaitMs = 0 }: { admissionWaitMs?: number } = {},
  ): Promise<SyncSearchResult> {
    if (principal.mode === 'test') {
      // A test key gets the sandbox's fixed data in the live shape: no pipeline, never charged;
      // refused as its live key would be, so that going live is a key change only.
      refuseProvidersNotOnPlan(request, principal.plan);
      try {
        const creditsRemaining = await this.balances.creditsRemaining(principal.accountId);
        return {
          body: this.sandbox.execute(request, requestId, creditsRemaining),
          creditsCharged: 0,
          creditsRemaining,
        };
      } catch (error) {
        // answered here, never by the pipeline: a retry under the same key runs afresh at once
        await this.idempotency.keepNeverSent(requestId).catch(() => undefined);
        throw error;
      }
    }
    const { accountId, plan } = principal;
    // `timeout_ms` is the caller's budget from its request's arrival: a wait for admission comes
    // off what the providers get (admission only lets a search wait while enough is left).
    const timeoutMs = Math.max(1, request.waterfall.timeout_ms - admissionWaitMs);
    annotateStage({
      'search.id': requestId,
      'account.id': accountId,
      'account.plan': plan,
      'search.strategy': request.waterfall.strategy,
      'search.limit': request.limit,
      'search.dry_run': request.dry_run,
    });
    const now = Date.now();
    const waitMs = timeoutMs + this.config.SEARCH_REPLY_GRACE_MS;
    const answer = this.replies.wait(requestId, waitMs);
    try {
      await this.publisher.publish(Topics.SearchRequested, {
        v: 1,
        search_id: requestId,
        kind: 'sync',
        account_id: accountId,
        plan,
        mode: principal.mode,
        providers_enabled: providersForPlan(plan),
        request,
        requested_at: new Date(now).toISOString(),
        deadline_at: now + timeoutMs,
        // past it billing charges no page: this caller has been answered internal_error and retries
        answer_by: answerBy(now + waitMs),
      });
    } catch (error) {
      this.replies.cancel(requestId);
      await this.idempotency.keepNeverSent(requestId).catch(() => undefined);
      throw error;
    }
    let reply;
    try {
      reply = await answer;
    } catch (error) {
      if (error instanceof ReplyTimeout) {
        throw new ApiError(
          'internal_error',
          'The search did not complete in time. Retry with the same Idempotency-Key.',
        );
      }
      throw error;
    }
    if (reply.outcome === 'ok' && reply.estimate) {
      // A dry run: an estimate, never charged.
      return {
        body: reply.estimate,
        creditsCharged: 0,
        creditsRemaining: await this.balances.creditsRemaining(accountId),
      };
    }
    if (reply.outcome === 'error' || !reply.response) {
      const failure = reply.error ?? { code: 'internal_error' as const, message: 'The search failed.' };
      throw new ApiError(failure.code, failure.message, {
        ...(failure.param ? { param: failure.param } : {}),
        ...(failure.credits_needed !== undefined ? { credits_needed: failure.credits_needed } : {}),
        ...(failure.required_plan ? { required_plan: failure.required_plan } : {}),
      });
    }
    annotateStage({ 'page.jobs': reply.response.data.length, 'credits.charged': reply.credits_charged });
    return {
      body: reply.response,
      creditsCharged: reply.credits_charged,
      creditsRemaining: reply.credits_remaining ?? (await this.balances.creditsRemaining(accountId)),
    };
  }
}

/** A search that names a provider its plan does not route to: 403 `plan_required`, as the orchestrator answers it. */
function refuseProvidersNotOnPlan(request: JobSearchRequest, plan: Principal['plan']): void {
  const enabled = providersForPlan(plan);
  const notOnPlan = (request.waterfall.providers ?? []).filter((p) => !enabled.includes(p));
  if (notOnPlan.length === 0) return;
  const { message, required_plan } = planRequiredRefusal(notOnPlan);
  throw new ApiError('plan_required', message, { required_plan });
}
