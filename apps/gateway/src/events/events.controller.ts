import { Body, Controller, Get, HttpCode, Post, Query, UseGuards } from '@nestjs/common';
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
    @RequestId() requestId: string,
  ): Promise<WebhookReplayResponse> {
    return this.feed.replay(principal, parseRequest(WebhookReplayRequestSchema, body).event_id, requestId);
  }
}
