import type { OrchestratorQueryRequested } from '@jobs/contracts';
import { providersForPlan } from '@jobs/plans';
import type { Principal } from '../auth/api-key.js';

/**
 * What every query to the orchestrator says of the asking account. The plan is the principal's:
 * an account's plan is fixed when it is opened, so the key's cached principal is as current as the
 * accounts row.
 */
export function orchestratorQueryHeader(
  principal: Principal,
  requestId: string,
): Omit<OrchestratorQueryRequested.Value, 'query'> {
  return {
    v: 1,
    query_id: requestId,
    account_id: principal.accountId,
    plan: principal.plan,
    mode: principal.mode,
    providers_enabled: providersForPlan(principal.plan),
  };
}
