import { Module } from '@nestjs/common';
import { LedgerController } from './ledger.controller.js';

@Module({ controllers: [LedgerController] })
export class LedgerModule {}
