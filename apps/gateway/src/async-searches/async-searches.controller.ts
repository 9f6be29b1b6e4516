import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  AsyncSearchCreateRequestSchema,
  AsyncSearchParamsSchema,
  AsyncSearchReadQuerySchema,
  type AsyncSearch,
} from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { parseRequest } from '../http/validation.js';
import { AsyncSearchesUseCase } from './async-searches.usecase.js';

@Controller('v1/searches')
@UseGuards(ApiKeyGuard)
export class AsyncSearchesController {
  constructor(private readonly searches: AsyncSearchesUseCase) {}

  @Post()
  @HttpCode(202)
  create(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Req() request: FastifyRequest,
  ): Promise<AsyncSearch> {
    return this.searches.create(
      principal,
      parseRequest(AsyncSearchCreateRequestSchema, body),
      requestId,
      request.idempotency,
    );
  }

  @Get(':id')
  read(
    @Param() params: unknown,
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<AsyncSearch> {
    // Something that is not a search id names no search: 404, like an unknown one.
    const parsed = AsyncSearchParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such async search.');
    return this.searches.read(principal, parsed.data.id, parseRequest(AsyncSearchReadQuerySchema, query), requestId);
  }
}
