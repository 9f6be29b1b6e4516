import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { CompanyDomainParamsSchema, type CompanyProfile } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { ReadCompanyProfileAndChargeUseCase } from './read-company-profile-and-charge.usecase.js';

@Controller('v1/companies')
@UseGuards(ApiKeyGuard)
export class CompaniesController {
  constructor(private readonly getProfile: ReadCompanyProfileAndChargeUseCase) {}

  @Get(':domain')
  async get(
    @Param() params: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<CompanyProfile> {
    const { domain } = parseRequest(CompanyDomainParamsSchema, params);
    const read = await this.getProfile.execute(principal, domain.toLowerCase(), requestId);
    void reply.header('X-Credits-Charged', String(read.creditsCharged));
    void reply.header('X-Credits-Remaining', String(read.creditsRemaining));
    return read.profile;
  }
}
