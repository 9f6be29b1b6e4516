import { Controller, Get, Param, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import type { DashboardPage, LedgerEntry, LedgerRequestView } from '@jobs/contracts';
import { ApiError } from '../http/api-error.js';
import { parseRequest } from '../http/validation.js';
import { DashboardHeadersInterceptor } from './dashboard-headers.interceptor.js';
import { DashboardLedgerUseCase } from './dashboard-ledger.usecase.js';
import { CurrentDashboard, DashboardSessionGuard, type DashboardCaller } from './dashboard-session.guard.js';
import { LedgerPageQuerySchema, LedgerRequestParamsSchema } from './dashboard.schema.js';

/**
 * The ledger by request in the dashboard (`/dashboard/api/ledger/requests`): one row per request,
 * and the lines of one request. Signed in by session like the rest of the dashboard's API.
 */
@Controller('dashboard/api/ledger/requests')
@UseInterceptors(DashboardHeadersInterceptor)
@UseGuards(DashboardSessionGuard)
export class DashboardLedgerController {
  constructor(private readonly ledger: DashboardLedgerUseCase) {}

  @Get()
  requests(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
  ): Promise<DashboardPage<LedgerRequestView>> {
    return this.ledger.requests(caller.session.accountId, parseRequest(LedgerPageQuerySchema, query).cursor);
  }

  @Get(':request_id')
  lines(
    @Param() params: unknown,
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
  ): Promise<DashboardPage<LedgerEntry>> {
    const parsed = LedgerRequestParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such request in this ledger.');
    return this.ledger.lines(
      caller.session.accountId,
      parsed.data.request_id,
      parseRequest(LedgerPageQuerySchema, query).cursor,
    );
  }
}
