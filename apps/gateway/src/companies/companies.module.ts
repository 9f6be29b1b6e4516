import { Module } from '@nestjs/common';
import { AccountModule } from '../account/account.module.js';
import { CompaniesController } from './companies.controller.js';
import { GetCompanyProfileUseCase } from './get-company-profile.usecase.js';

@Module({ imports: [AccountModule], controllers: [CompaniesController], providers: [GetCompanyProfileUseCase] })
export class CompaniesModule {}
