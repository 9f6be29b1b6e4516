import { Injectable } from '@nestjs/common';
import type { CompanyProfile } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import { sandboxCompanyProfile } from '@jobs/sandbox';
import { ApiError } from '../http/api-error.js';
import { AccountBalances } from '../account/account-balances.js';
import type { Principal } from '../auth/api-key.js';
import { QueryClient } from '../messaging/query-client.js';

export interface CompanyProfileRead {
  profile: CompanyProfile;
  creditsCharged: number;
  creditsRemaining: number;
}

/**
 * GET /v1/companies/{domain}: the profile from dedupe (only from jobs a provider of the plan
 * saw; 404 otherwise), then billing charges 1 credit for the request (every time; 402 without
 * credits, and then nothing is returned). Test keys read the sandbox companies, never charged.
 */
@Injectable()
export class ReadCompanyProfileAndChargeUseCase {
  constructor(
    private readonly balances: AccountBalances,
    private readonly queries: QueryClient,
  ) {}

  async execute(principal: Principal, domain: string, requestId: string): Promise<CompanyProfileRead> {
    if (principal.mode === 'test') {
      const profile = sandboxCompanyProfile(domain);
      if (!profile) throw new ApiError('not_found', `No company ${domain} in the sandbox data.`);
      return {
        profile,
        creditsCharged: 0,
        creditsRemaining: await this.balances.creditsRemaining(principal.accountId),
      };
    }
    const { profile } = await this.queries.askDedupe({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      query: { kind: 'company.profile', domain, providers_routable: providersForPlan(principal.plan) },
    });
    const charge = await this.queries.askBilling({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: { kind: 'company.charge', domain, operation: `GET /v1/companies/${domain}` },
    });
    return { profile, creditsCharged: charge.credits_charged, creditsRemaining: charge.credits_remaining };
  }
}
