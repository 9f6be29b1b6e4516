import { Body, Controller, Get, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  WebhookEndpointListQuerySchema,
  WebhookEndpointRotateRequestSchema,
  WebhookEndpointSecretRequestSchema,
  type WebhookEndpointListResponse,
  type WebhookEndpointRotated,
  type WebhookEndpointSecret,
} from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { keepAnswerSealed } from '../idempotency/replay-sealer.js';
import { WebhookEndpointsUseCase } from './webhook-endpoints.usecase.js';

/**
 * `GET /v1/webhook_endpoints`, `POST /v1/webhook_endpoints/secret` and `.../secret/rotate`: a
 * customer's own webhook URLs and their signing secrets, in its key's mode. Free; rate limited
 * and Idempotency-Key as every authenticated route (an answer kept for a key is sealed: it holds
 * a secret).
 */
@Controller('v1/webhook_endpoints')
@UseGuards(ApiKeyGuard)
export class WebhookEndpointsController {
  constructor(private readonly endpoints: WebhookEndpointsUseCase) {}

  @Get()
  list(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointListResponse> {
    return this.endpoints.list(principal, parseRequest(WebhookEndpointListQuerySchema, query).cursor, requestId);
  }

  @Post('secret')
  @HttpCode(200)
  secret(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointSecret> {
    keepAnswerSealed(request);
    const { url } = parseRequest(WebhookEndpointSecretRequestSchema, body);
    return this.endpoints.reveal(principal, url, request.requestId);
  }

  @Post('secret/rotate')
  @HttpCode(200)
  rotate(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<WebhookEndpointRotated> {
    keepAnswerSealed(request);
    const { url, previous_expires_in_seconds } = parseRequest(WebhookEndpointRotateRequestSchema, body);
    return this.endpoints.rotate(principal, url, previous_expires_in_seconds, request.requestId, request.idempotency);
  }
}
