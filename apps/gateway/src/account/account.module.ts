import { Module } from '@nestjs/common';
import { AccountBalances } from './account-balances.js';
import { AccountController } from './account.controller.js';

@Module({ controllers: [AccountController], providers: [AccountBalances] })
export class AccountModule {}
