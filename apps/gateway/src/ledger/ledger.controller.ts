import { Controller, Get, Query, UseGuards } from '@nestjs/common';
import { LedgerListQuerySchema, type LedgerListResponse } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { ReadLedgerUseCase } from './read-ledger.usecase.js';

@Controller('v1/billing/ledger')
@UseGuards(ApiKeyGuard)
export class LedgerController {
  constructor(private readonly ledger: ReadLedgerUseCase) {}

  @Get()
  list(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<LedgerListResponse> {
    return this.ledger.page(principal, parseRequest(LedgerListQuerySchema, query), requestId);
  }
}
