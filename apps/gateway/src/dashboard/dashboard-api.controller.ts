import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Inject,
  Param,
  Patch,
  Post,
  Query,
  Req,
  Res,
  UseGuards,
  UseInterceptors,
} from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  LedgerListQuerySchema,
  WatchCreateRequestSchema,
  WatchListQuerySchema,
  WatchParamsSchema,
  WebhookEndpointListQuerySchema,
  WebhookEndpointRotateRequestSchema,
  WebhookEndpointSecretRequestSchema,
  WebhookReplayRequestSchema,
  type Account,
  type DailyUsage,
  type DashboardKey,
  type DashboardPage,
  type DashboardSessionView,
  type EventDeliveriesView,
  type LedgerListResponse,
  type ProviderListResponse,
  type Watch,
  type WatchListResponse,
  type WebhookEndpointListResponse,
  type WebhookEndpointRotated,
  type WebhookEndpointSecret,
  type WebhookReplayResponse,
} from '@jobs/contracts';
import { ReadAccountUseCase } from '../account/read-account.usecase.js';
import { RequestId } from '../auth/api-key.guard.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { parseRequest } from '../http/validation.js';
import { ReadLedgerUseCase } from '../ledger/read-ledger.usecase.js';
import { RateLimited } from '../limits/rate-limited.decorator.js';
import { ListProvidersUseCase } from '../providers/list-providers.usecase.js';
import { AskWatchesUseCase } from '../watches/ask-watches.usecase.js';
import { WebhookEndpointsUseCase } from '../webhook-endpoints/webhook-endpoints.usecase.js';
import { requestProtocol } from './dashboard-cookie.js';
import { DashboardDeliveriesUseCase } from './dashboard-deliveries.usecase.js';
import { DashboardHeadersInterceptor } from './dashboard-headers.interceptor.js';
import { DashboardKeysUseCase } from './dashboard-keys.usecase.js';
import {
  CurrentDashboard,
  DashboardSessionGuard,
  DashboardSessionIfAny,
  type DashboardCaller,
} from './dashboard-session.guard.js';
import { sameOrigin, sessionCookie, type DashboardSession } from './dashboard-session.js';
import { DashboardSignInUseCase } from './dashboard-sign-in.usecase.js';
import { DashboardUsageUseCase } from './dashboard-usage.usecase.js';
import {
  DeliveriesQuerySchema,
  KeyCreateRequestSchema,
  KeyParamsSchema,
  SignInRequestSchema,
  WatchStatusRequestSchema,
} from './dashboard.schema.js';

const sessionView = (session: DashboardSession): DashboardSessionView => ({
  account_id: session.accountId,
  key_prefix: session.keyPrefix,
  csrf_token: session.csrfToken,
  expires_at: new Date(session.expiresAt).toISOString(),
});

/**
 * The dashboard's own API on the public port: sign-in with a live key, then the session cookie
 * (DashboardSessionGuard) for everything else. Each route maps HTTP onto a use case the public
 * API or the admin API already has (keys, account, ledger, watches, replay, providers) or a
 * read of its own (usage per day, deliveries with attempts); webhook endpoints as
 * `/v1/webhook_endpoints` (the session's live key). Signed-in routes count against the
 * account's rate limit, as the public API does (RateLimitGate); replay also against its own.
 */
@Controller('dashboard/api')
@UseInterceptors(DashboardHeadersInterceptor)
export class DashboardApiController {
  constructor(
    private readonly signIn: DashboardSignInUseCase,
    private readonly keys: DashboardKeysUseCase,
    private readonly account: ReadAccountUseCase,
    private readonly usage: DashboardUsageUseCase,
    private readonly ledger: ReadLedgerUseCase,
    private readonly watches: AskWatchesUseCase,
    private readonly deliveries: DashboardDeliveriesUseCase,
    private readonly providers: ListProvidersUseCase,
    private readonly webhookEndpoints: WebhookEndpointsUseCase,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  @Post('session')
  @HttpCode(201)
  @RateLimited('dashboard-sign-in')
  async open(
    @Body() body: unknown,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DashboardSessionView> {
    // No session yet, so no CSRF token: a sign-in from another site (login CSRF) is refused by origin.
    const protocol = requestProtocol(request, this.config);
    const origin = request.headers.origin;
    const fetchSite = request.headers['sec-fetch-site'];
    if (
      !sameOrigin(
        {
          origin: typeof origin === 'string' ? origin : undefined,
          host: request.headers.host,
          secFetchSite: typeof fetchSite === 'string' ? fetchSite : undefined,
        },
        protocol,
      )
    ) {
      throw new ApiError('unauthorized', 'Sign in from the dashboard itself.', {}, {}, 403);
    }
    const { sessionId, session } = await this.signIn.signIn(parseRequest(SignInRequestSchema, body).key);
    const maxAgeSeconds = Math.floor((session.expiresAt - Date.now()) / 1000);
    void reply.header('Set-Cookie', sessionCookie(sessionId, { maxAgeSeconds, secure: protocol === 'https' }));
    return sessionView(session);
  }

  /**
   * The session the cookie opens, or 204 when there is none: the page asks this on every load, and
   * a signed-out visitor is the usual case there, not a refusal (no 401 in the browser's console).
   * Not counted nor refused, like sign-out: an account whose window an integration used up must
   * still get its page and its Sign out (it reads nothing but the session).
   */
  @Get('session')
  @RateLimited('never')
  @UseGuards(DashboardSessionIfAny)
  current(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): DashboardSessionView | undefined {
    if (!request.dashboard) {
      void reply.status(204);
      return undefined;
    }
    return sessionView(request.dashboard.session);
  }

  @Delete('session')
  @HttpCode(204)
  @UseGuards(DashboardSessionGuard)
  @RateLimited('never')
  async close(
    @CurrentDashboard() caller: DashboardCaller,
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    await this.signIn.signOut(caller.sessionId);
    void reply.header(
      'Set-Cookie',
      sessionCookie('', { maxAgeSeconds: 0, secure: requestProtocol(request, this.config) === 'https' }),
    );
  }

  @Get('account')
  @UseGuards(DashboardSessionGuard)
  accountOf(@CurrentDashboard() caller: DashboardCaller): Promise<Account> {
    return this.account.execute(caller.principal);
  }

  @Get('keys')
  @UseGuards(DashboardSessionGuard)
  listKeys(@CurrentDashboard() caller: DashboardCaller): Promise<{ data: DashboardKey[] }> {
    return this.keys.list(caller.session.accountId);
  }

  @Post('keys')
  @HttpCode(201)
  @UseGuards(DashboardSessionGuard)
  createKey(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
  ): Promise<DashboardKey & { key: string }> {
    const { mode, label } = parseRequest(KeyCreateRequestSchema, body);
    return this.keys.create(caller.session.accountId, mode, label ?? null);
  }

  @Delete('keys/:id')
  @UseGuards(DashboardSessionGuard)
  revokeKey(@Param() params: unknown, @CurrentDashboard() caller: DashboardCaller): Promise<DashboardKey> {
    const parsed = KeyParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such key.');
    return this.keys.revoke(caller.session.accountId, parsed.data.id);
  }

  @Get('usage/daily')
  @UseGuards(DashboardSessionGuard)
  daily(@CurrentDashboard() caller: DashboardCaller): Promise<{ data: DailyUsage[] }> {
    return this.usage.daily(caller.session.accountId);
  }

  @Get('ledger')
  @UseGuards(DashboardSessionGuard)
  ledgerPage(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<LedgerListResponse> {
    return this.ledger.page(caller.principal, parseRequest(LedgerListQuerySchema, query), requestId);
  }

  @Get('watches')
  @UseGuards(DashboardSessionGuard)
  listWatches(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<WatchListResponse> {
    return this.watches.list(caller.principal, parseRequest(WatchListQuerySchema, query).cursor, requestId);
  }

  @Post('watches')
  @HttpCode(201)
  @UseGuards(DashboardSessionGuard)
  createWatch(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<Watch> {
    return this.watches.create(caller.principal, parseRequest(WatchCreateRequestSchema, body), requestId, undefined);
  }

  @Delete('watches/:id')
  @HttpCode(204)
  @UseGuards(DashboardSessionGuard)
  async deleteWatch(
    @Param() params: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<void> {
    const parsed = WatchParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such watch.');
    await this.watches.delete(caller.principal, parsed.data.id, requestId);
  }

  /**
   * Pause or resume: `{status: "paused" | "active"}`; answers the watch. A change, so CSRF and origin are checked (the
   * guard).
   */
  @Patch('watches/:id')
  @UseGuards(DashboardSessionGuard)
  setWatchStatus(
    @Param() params: unknown,
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<Watch> {
    const parsed = WatchParamsSchema.safeParse(params);
    if (!parsed.success) throw new ApiError('not_found', 'No such watch.');
    return this.watches.setStatus(
      caller.principal,
      parsed.data.id,
      parseRequest(WatchStatusRequestSchema, body).status,
      requestId,
    );
  }

  @Get('deliveries')
  @UseGuards(DashboardSessionGuard)
  deliveryPage(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
  ): Promise<DashboardPage<EventDeliveriesView>> {
    return this.deliveries.page(caller.principal, parseRequest(DeliveriesQuerySchema, query).cursor);
  }

  @Post('deliveries/replay')
  @HttpCode(202)
  @UseGuards(DashboardSessionGuard)
  @RateLimited('dashboard-replay')
  replay(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<WebhookReplayResponse> {
    return this.deliveries.replay(caller.principal, parseRequest(WebhookReplayRequestSchema, body).event_id, requestId);
  }

  @Get('webhook_endpoints')
  @UseGuards(DashboardSessionGuard)
  listWebhookEndpoints(
    @Query() query: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointListResponse> {
    return this.webhookEndpoints.list(
      caller.principal,
      parseRequest(WebhookEndpointListQuerySchema, query).cursor,
      requestId,
    );
  }

  /** Reveals a URL's signing secret: a POST, so only the dashboard's own page (CSRF token, same origin) can read it. */
  @Post('webhook_endpoints/secret')
  @HttpCode(200)
  @UseGuards(DashboardSessionGuard)
  revealWebhookSecret(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointSecret> {
    const { url } = parseRequest(WebhookEndpointSecretRequestSchema, body);
    return this.webhookEndpoints.reveal(caller.principal, url, requestId);
  }

  @Post('webhook_endpoints/secret/rotate')
  @HttpCode(200)
  @UseGuards(DashboardSessionGuard)
  rotateWebhookSecret(
    @Body() body: unknown,
    @CurrentDashboard() caller: DashboardCaller,
    @RequestId() requestId: string,
  ): Promise<WebhookEndpointRotated> {
    const { url, previous_expires_in_seconds } = parseRequest(WebhookEndpointRotateRequestSchema, body);
    return this.webhookEndpoints.rotate(caller.principal, url, previous_expires_in_seconds, requestId);
  }

  @Get('providers')
  @UseGuards(DashboardSessionGuard)
  providerList(@CurrentDashboard() caller: DashboardCaller): Promise<ProviderListResponse> {
    return this.providers.execute(caller.principal);
  }
}
