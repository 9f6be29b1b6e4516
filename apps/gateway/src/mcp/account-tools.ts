/** The tools on the account: its balance, the providers it may use and the ledger of what was charged. All free. */
import { z } from 'zod';
import {
  AccountSchema,
  JobIdSchema,
  LedgerListResponseSchema,
  ProviderListResponseSchema,
  type LedgerEntry,
  type Provider,
} from '@jobs/contracts';
import { queryString, tool, type McpTool } from './mcp-tool.js';
import { cursorInput } from './tool-inputs.js';
import { count, credits, pageEnd } from './tool-text.js';

/** Requests listed by name in a ledger page's summary; the rest are counted. */
const REQUESTS_NAMED = 5;

/**
 * "12 credits charged, 3 free re-reads. By request: req_1 (POST /v1/jobs/search) 10 credits, ..."
 * A ledger page is many lines per request (one per job); what a model asks of it is mostly what
 * each request cost, so the text sums them, in the page's order (newest first).
 */
export function ledgerSummary(entries: readonly LedgerEntry[]): string {
  const charged = entries.reduce((sum, entry) => sum + entry.credits, 0);
  const free = entries.filter((entry) => entry.reason === 'already_paid').length;
  const byRequest = new Map<string, { operation: string; credits: number; lines: number }>();
  for (const entry of entries) {
    const request = byRequest.get(entry.request_id) ?? { operation: entry.operation, credits: 0, lines: 0 };
    request.credits += entry.credits;
    request.lines += 1;
    byRequest.set(entry.request_id, request);
  }
  const named = [...byRequest]
    .slice(0, REQUESTS_NAMED)
    .map(([id, r]) => `${id} (${r.operation}) ${credits(r.credits)}`);
  const others = byRequest.size - named.length;
  return (
    `${count(entries.length, 'ledger entry', 'ledger entries')}, newest first: ${credits(charged)} charged, ` +
    `${count(free, 'free re-read')}.` +
    (named.length > 0 ? ` By request: ${named.join('; ')}${others > 0 ? `; and ${others} more` : ''}.` : '')
  );
}

/** "7 providers, 4 on your plan. Not operational: provider_d degraded." */
export function providersSummary(providers: readonly Provider[]): string {
  const enabled = providers.filter((provider) => provider.enabled_on_your_plan).length;
  const troubled = providers
    .filter((provider) => provider.status !== 'operational')
    .map((provider) => `${provider.slug} ${provider.status}`);
  return (
    `${count(providers.length, 'provider')}, ${enabled} on your plan. ` +
    (troubled.length > 0 ? `Not operational: ${troubled.join(', ')}.` : 'All operational.')
  );
}

export const ACCOUNT_TOOLS: readonly McpTool[] = [
  tool({
    name: 'get_account',
    endpoint: 'GET /v1/account',
    purpose: 'Plan, credits remaining, providers, rate limit',
    title: 'Read the account (free)',
    cost: 'free',
    description: 'FREE. Plan, credits_remaining, credits_reset_at, providers enabled, rate limit.',
    input: z.strictObject({}),
    output: AccountSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: () => ({ method: 'GET', url: '/v1/account' }),
    summary: (account) =>
      `Plan ${account.plan}, ${credits(account.credits_remaining)} remaining (reset at ${account.credits_reset_at}).`,
  }),

  tool({
    name: 'list_providers',
    endpoint: 'GET /v1/providers',
    purpose: 'The seven sources: enabled on the plan, operational, degraded or down',
    title: 'List providers and their status (free)',
    cost: 'free',
    description:
      'FREE. Every source (own_index and six partners): enabled_on_your_plan, status (operational, ' +
      'degraded, down) and last_checked_at; leave a down partner out of waterfall.providers.',
    input: z.strictObject({}),
    output: ProviderListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: () => ({ method: 'GET', url: '/v1/providers' }),
    summary: ({ data }) => providersSummary(data),
  }),

  tool({
    name: 'list_ledger_entries',
    endpoint: 'GET /v1/billing/ledger',
    purpose: 'Every charge and free re-read, newest first, 50 a page',
    title: 'Read the billing ledger (free)',
    cost: 'free',
    description:
      'FREE. The ledger, newest first: an entry per job charged or re-read free (already_paid), with ' +
      'the request_id that caused it (an async search: its srch_ id); company profiles have job_id null.',
    input: z.strictObject({
      job_id: JobIdSchema.optional().describe('Only the entries of this job.'),
      cursor: cursorInput,
    }),
    output: LedgerListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ job_id, cursor }) => ({ method: 'GET', url: `/v1/billing/ledger${queryString({ job_id, cursor })}` }),
    summary: ({ data, next_cursor }) => `${ledgerSummary(data)}${pageEnd(next_cursor)}`,
  }),
];
