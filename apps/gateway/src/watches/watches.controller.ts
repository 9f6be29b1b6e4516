import { Body, Controller, Delete, Get, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  WatchCreateRequestSchema,
  WatchListQuerySchema,
  WatchParamsSchema,
  type Watch,
  type WatchListResponse,
} from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';
import { parseRequest } from '../http/validation.js';
import { AskWatchesUseCase } from './ask-watches.usecase.js';

@Controller('v1/watches')
@UseGuards(ApiKeyGuard)
export class WatchesController {
  constructor(private readonly watches: AskWatchesUseCase) {}

  @Post()
  @HttpCode(201)
  create(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
    @Req() request: FastifyRequest,
  ): Promise<Watch> {
    return this.watches.create(principal, parseRequest(WatchCreateRequestSchema, body), requestId, request.idempotency);
  }

  @Get()
  list(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<WatchListResponse> {
    return this.watches.list(principal, parseRequest(WatchListQuerySchema, query).cursor, requestId);
  }

  @Delete(':id')
  @HttpCode(204)
  async delete(
    @Param() params: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<void> {
    // Something that is not a watch id names no watch: 404, like an unknown one.
    const parsed = WatchParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such watch.');
    await this.watches.delete(principal, parsed.data.id, requestId);
  }
}
