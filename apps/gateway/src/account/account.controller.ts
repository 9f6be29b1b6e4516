import { Controller, Get, UseGuards } from '@nestjs/common';
import type { Account } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ReadAccountUseCase } from './read-account.usecase.js';

@Controller('v1/account')
@UseGuards(ApiKeyGuard)
export class AccountController {
  constructor(private readonly account: ReadAccountUseCase) {}

  @Get()
  get(@CurrentPrincipal() principal: Principal): Promise<Account> {
    return this.account.execute(principal);
  }
}
