import { Body, Controller, HttpCode, Post, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { HEADERS, JobSearchRequestSchema, type JobSearchResult } from '@jobs/contracts';
import { RequestId } from '../auth/api-key.guard.js';
import { parseRequest } from '../http/validation.js';
import { RateLimited } from '../limits/rate-limited.decorator.js';
import { RunSandboxSearchUseCase } from './run-sandbox-search.usecase.js';

/** Keyless: nothing is charged, so the balance reported is 0. */
const KEYLESS_CREDITS_REMAINING = 0;

/**
 * `POST /v1/sandbox/jobs/search`: no key, the live endpoint's validation and shapes, fixed data:
 * a body of the wrong shape is a 400 as on the live endpoint, every valid body the same fixed
 * page (or, with `dry_run: true`, the same fixed estimate). Without an account to count against,
 * it is rate limited per client address.
 */
@Controller('v1/sandbox/jobs')
@RateLimited('client-address')
export class SandboxController {
  constructor(private readonly sandbox: RunSandboxSearchUseCase) {}

  @Post('search')
  @HttpCode(200)
  search(
    @Body() body: unknown,
    @RequestId() requestId: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): JobSearchResult {
    const request = parseRequest(JobSearchRequestSchema, body);
    const result = this.sandbox.execute(request, requestId, KEYLESS_CREDITS_REMAINING);
    void reply.header(HEADERS.creditsCharged, '0');
    void reply.header(HEADERS.creditsRemaining, String(KEYLESS_CREDITS_REMAINING));
    return result;
  }
}
