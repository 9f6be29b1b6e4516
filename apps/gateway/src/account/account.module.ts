import { Module } from '@nestjs/common';
import { AccountBalances } from './account-balances.js';
import { AccountController } from './account.controller.js';
import { ReadAccountUseCase } from './read-account.usecase.js';

@Module({
  controllers: [AccountController],
  providers: [AccountBalances, ReadAccountUseCase],
  exports: [AccountBalances, ReadAccountUseCase],
})
export class AccountModule {}
