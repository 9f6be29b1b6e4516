import { Controller, Get, Param, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { JobParamsSchema, type Job } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { ReadJobAndChargeUseCase } from './read-job-and-charge.usecase.js';

@Controller('v1/jobs')
@UseGuards(ApiKeyGuard)
export class JobsController {
  constructor(private readonly getJob: ReadJobAndChargeUseCase) {}

  @Get(':id')
  async get(
    @Param() params: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Job> {
    const { id } = parseRequest(JobParamsSchema, params);
    const read = await this.getJob.execute(principal, id, requestId);
    void reply.header('X-Credits-Charged', String(read.creditsCharged));
    void reply.header('X-Credits-Remaining', String(read.creditsRemaining));
    return read.job;
  }
}
