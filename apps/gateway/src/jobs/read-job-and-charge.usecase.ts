import { Injectable } from '@nestjs/common';
import type { Job } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import { findSandboxJob } from '@jobs/sandbox';
import { ApiError } from '../http/api-error.js';
import { AccountBalances } from '../account/account-balances.js';
import type { Principal } from '../auth/api-key.js';
import { QueryClient } from '../messaging/query-client.js';

export interface JobRead {
  job: Job;
  creditsCharged: number;
  creditsRemaining: number;
}

/**
 * GET /v1/jobs/{id}: the job from dedupe's store (only if a provider of the plan saw it),
 * then billing charges 1 credit unless it was paid for before.
 */
@Injectable()
export class ReadJobAndChargeUseCase {
  constructor(
    private readonly balances: AccountBalances,
    private readonly queries: QueryClient,
  ) {}

  async execute(principal: Principal, jobId: string, requestId: string): Promise<JobRead> {
    if (principal.mode === 'test') {
      // Test keys see the sandbox's fictional jobs, never charged.
      const job = findSandboxJob(jobId);
      if (!job) throw new ApiError('not_found', `No job ${jobId} in the sandbox data.`);
      return { job, creditsCharged: 0, creditsRemaining: await this.balances.creditsRemaining(principal.accountId) };
    }
    const { job } = await this.queries.askDedupe({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      query: { kind: 'job.get', job_id: jobId, providers_routable: providersForPlan(principal.plan) },
    });
    const charge = await this.queries.askBilling({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: { kind: 'job.charge', job_id: jobId, operation: `GET /v1/jobs/${jobId}` },
    });
    return { job, creditsCharged: charge.credits_charged, creditsRemaining: charge.credits_remaining };
  }
}
