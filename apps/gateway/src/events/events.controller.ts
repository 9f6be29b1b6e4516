import { Body, Controller, Get, HttpCode, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  EventListQuerySchema,
  WebhookReplayRequestSchema,
  type EventListResponse,
  type WebhookReplayResponse,
} from '@jobs/contracts';
import { ApiKeyGuard, CurrentPrincipal, RequestId } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/api-key.js';
import { parseRequest } from '../http/validation.js';
import { EventFeedUseCase } from './event-feed.usecase.js';

/** GET /v1/events (the feed) and POST /v1/webhooks/replay: both answered by the webhook-dispatcher; free. */
@Controller('v1')
@UseGuards(ApiKeyGuard)
export class EventsController {
  constructor(private readonly feed: EventFeedUseCase) {}

  @Get('events')
  list(
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
    @RequestId() requestId: string,
  ): Promise<EventListResponse> {
    return this.feed.list(principal, parseRequest(EventListQuerySchema, query), requestId);
  }

  @Post('webhooks/replay')
  @HttpCode(202)
  replay(
    @Body() body: unknown,
    @CurrentPrincipal() principal: Principal,
    @Req() request: FastifyRequest,
  ): Promise<WebhookReplayResponse> {
    const { event_id } = parseRequest(WebhookReplayRequestSchema, body);
    return this.feed.replay(principal, event_id, request.requestId, request.idempotency);
  }
}
