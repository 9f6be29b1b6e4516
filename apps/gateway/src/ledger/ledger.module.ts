import { Module } from '@nestjs/common';
import { LedgerController } from './ledger.controller.js';
import { ReadLedgerUseCase } from './read-ledger.usecase.js';

@Module({ controllers: [LedgerController], providers: [ReadLedgerUseCase], exports: [ReadLedgerUseCase] })
export class LedgerModule {}
