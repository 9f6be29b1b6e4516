import { Module } from '@nestjs/common';
import { CompaniesController } from './companies.controller.js';
import { GetCompanyProfileUseCase } from './get-company-profile.usecase.js';

@Module({ controllers: [CompaniesController], providers: [GetCompanyProfileUseCase] })
export class CompaniesModule {}
