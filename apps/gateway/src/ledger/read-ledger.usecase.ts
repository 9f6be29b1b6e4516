import { Injectable } from '@nestjs/common';
import type { LedgerListQuery, LedgerListResponse } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import { QueryClient } from '../messaging/query-client.js';

/** Ledger pages are server-sized. */
const LEDGER_PAGE_SIZE = 50;

/** A page of the account's ledger, as billing (its owner) answers it: GET /v1/billing/ledger and the dashboard. */
@Injectable()
export class ReadLedgerUseCase {
  constructor(private readonly queries: QueryClient) {}

  async page(principal: Principal, query: LedgerListQuery, requestId: string): Promise<LedgerListResponse> {
    // Test keys are never charged: their ledger is the sandbox's, and empty.
    if (principal.mode === 'test') return { data: [], next_cursor: null };
    const { page } = await this.queries.askBilling({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: {
        kind: 'ledger.list',
        limit: LEDGER_PAGE_SIZE,
        ...(query.job_id ? { job_id: query.job_id } : {}),
        ...(query.cursor ? { cursor: query.cursor } : {}),
      },
    });
    return page;
  }
}
