import { Body, Controller, Delete, HttpCode, Param, Post, UseGuards } from '@nestjs/common';
import { AdminAccountCreateRequestSchema, AdminCreditsRequestSchema, AdminKeyCreateRequestSchema } from '@jobs/contracts';
import { parseRequest } from '../http/validation.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ManageAccountsUseCase } from './manage-accounts.usecase.js';

/** The internal admin API of operator.md, on ADMIN_PORT only. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(private readonly accounts: ManageAccountsUseCase) {}

  @Post('accounts')
  @HttpCode(201)
  createAccount(@Body() body: unknown) {
    return this.accounts.createAccount(parseRequest(AdminAccountCreateRequestSchema, body));
  }

  @Post('accounts/:accountId/credits')
  @HttpCode(200)
  addCredits(@Param('accountId') accountId: string, @Body() body: unknown) {
    return this.accounts.addCredits(accountId, parseRequest(AdminCreditsRequestSchema, body).amount);
  }

  @Post('accounts/:accountId/keys')
  @HttpCode(201)
  createKey(@Param('accountId') accountId: string, @Body() body: unknown) {
    return this.accounts.createKey(accountId, parseRequest(AdminKeyCreateRequestSchema, body).mode);
  }

  @Delete('keys/:key')
  @HttpCode(204)
  async revokeKey(@Param('key') key: string): Promise<void> {
    await this.accounts.revokeKey(key);
  }
}
