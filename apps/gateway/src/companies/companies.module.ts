import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { CompaniesController } from './companies.controller.js';
import { ReadCompanyProfileAndChargeUseCase } from './read-company-profile-and-charge.usecase.js';

@Module({
  imports: [AccountModule],
  controllers: [CompaniesController],
  providers: [ReadCompanyProfileAndChargeUseCase],
})
export class CompaniesModule {}
