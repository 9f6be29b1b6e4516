import { Body, Controller, HttpCode, Post, Req, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JobSearchRequestSchema, type JobSearchResult } from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { Admitted } from '../admission/admitted.decorator.js';
import { ReattachesSearch } from '../idempotency/idempotent-search.decorator.js';
import { RunSyncSearchUseCase } from './run-sync-search.usecase.js';

@Controller('v1/jobs')
@UseGuards(ApiKeyGuard)
export class SearchController {
  constructor(private readonly runSyncSearch: RunSyncSearchUseCase) {}

  @Post('search')
  @HttpCode(200)
  @ReattachesSearch()
  @Admitted('sync-search')
  async search(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Req() http: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<JobSearchResult> {
    const request = parseRequest(JobSearchRequestSchema, body);
    const result = await this.runSyncSearch.execute(principal, request, requestId, {
      admissionWaitMs: http.admissionWaitMs ?? 0,
    });
    // A partner that missed the deadline kept the answer waiting: admission does not read that as load.
    if (
      'metadata' in result.body &&
      result.body.metadata.providers.failed.some((failure) => failure.code === 'provider_timeout')
    )
      http.answerWaitedOnPartner = true;
    void reply.header('X-Credits-Charged', String(result.creditsCharged));
    void reply.header('X-Credits-Remaining', String(result.creditsRemaining));
    return result.body;
  }
}
