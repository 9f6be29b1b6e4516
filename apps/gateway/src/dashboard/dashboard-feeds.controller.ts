import { Body, Controller, Get, HttpCode, Param, Post, Query, UseGuards, UseInterceptors } from '@nestjs/common';
import {
  AsyncSearchCreateRequestSchema,
  AsyncSearchParamsSchema,
  AsyncSearchReadQuerySchema,
  EventListQuerySchema,
  type AsyncSearch,
  type AsyncSearchView,
  type DashboardPage,
  type EventListResponse,
} from '@jobs/contracts';
import { AsyncSearchesUseCase } from '../async-searches/async-searches.usecase.js';
import { RequestId } from '../auth/api-key.guard.js';
import { EventFeedUseCase } from '../events/event-feed.usecase.js';
import { ApiError } from '../http/api-error.js';
import { parseRequest } from '../http/validation.js';
import { DashboardAsyncSearchesUseCase } from './dashboard-async-searches.usecase.js';
import { DashboardHeadersInterceptor } from './dashboard-headers.interceptor.js';
import { CurrentDashboard, DashboardSessionGuard, type DashboardCaller } from './dashboard-session.guard.js';
import { SearchesQuerySchema } from './dashboard.schema.js';

/**
 * Async searches and the event feed in the dashboard: the account's searches (a read model, newest
 * first), and otherwise the public API's own use cases with its bodies, queries and answers:
 * POST and GET /v1/searches, GET /v1/events. Replay is the deliveries page's route.
 */
@Controller('dashboard/api')
@UseInterceptors(DashboardHeadersInterceptor)
@UseGuards(DashboardSessionGuard)
export class DashboardFeedsController {
  constructor(
    private readonly searchList: DashboardAsyncSearchesUseCase,
    private readonly searches: AsyncSearchesUseCase,
    private readonly feed: EventFeedUseCase,
  ) {}

  @Get('searches')
  listSearches(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
  ): Promise<DashboardPage<AsyncSearchView>> {
    return this.searchList.page(caller.principal, parseRequest(SearchesQuerySchema, query).cursor);
  }

  /** Starts an async search as POST /v1/searches does (the same body), charged as it collects. */
  @Post('searches')
  @HttpCode(202)
  startSearch(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<AsyncSearch> {
    return this.searches.create(
      caller.principal,
      parseRequest(AsyncSearchCreateRequestSchema, body),
      requestId,
      undefined,
    );
  }

  @Get('searches/:id')
  readSearch(
    @Param() params: unknown,
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<AsyncSearch> {
    const parsed = AsyncSearchParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such async search.');
    return this.searches.read(
      caller.principal,
      parsed.data.id,
      parseRequest(AsyncSearchReadQuerySchema, query),
      requestId,
    );
  }

  @Get('events')
  events(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<EventListResponse> {
    return this.feed.list(caller.principal, parseRequest(EventListQuerySchema, query), requestId);
  }
}
