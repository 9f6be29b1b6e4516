import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { LedgerListQuerySchema, type LedgerListResponse } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { QueryClient } from '../messaging/query-client.js';

/** Ledger pages are server-sized. */
const LEDGER_PAGE_SIZE = 50;

@Controller('v1/billing/ledger')
@UseGuards(ApiKeyGuard)
export class LedgerController {
  constructor(private readonly queries: QueryClient) {}

  @Get()
  async list(@Query() query: unknown, @CurrentPrincipal() principal: Principal, @RequestId() requestId: string): Promise<LedgerListResponse> {
    const { job_id, cursor } = parseRequest(LedgerListQuerySchema, query);
    // Test keys are never charged: their ledger is the sandbox's, and empty.
    if (principal.mode === 'test') return { data: [], next_cursor: null };
    const { page } = await this.queries.askBilling({
      v: 1,
      query_id: requestId,
      account_id: principal.accountId,
      mode: principal.mode,
      query: { kind: 'ledger.list', limit: LEDGER_PAGE_SIZE, ...(job_id ? { job_id } : {}), ...(cursor ? { cursor } : {}) },
    });
    return page;
  }
}
