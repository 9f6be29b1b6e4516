import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import {
  AdminAccountCreateRequestSchema,
  AdminCrawlerBoardParamsSchema,
  AdminCrawlerBoardPutRequestSchema,
  AdminCreditsRequestSchema,
  AdminKeyCreateRequestSchema,
  AdminProviderUpdateRequestSchema,
  AdminWebhookSecretQuerySchema,
  AdminWebhookSecretRotateRequestSchema,
  AdminWorldBoardParamsSchema,
  AdminWorldBoardPutRequestSchema,
  AdminWorldCompanySchema,
  AdminWorldJobCloseRequestSchema,
  AdminWorldJobCreateRequestSchema,
  AdminWorldJobParamsSchema,
  AdminRefreshParamsSchema,
  AdminWorldJobPatchRequestSchema,
  AdminWorldJobRepostRequestSchema,
} from '@jobs/contracts';
import { parseRequest } from '../http/validation.js';
import { AdminTokenGuard } from './admin-token.guard.js';
import { ManageCrawlerBoardsUseCase } from './crawler-boards/manage-crawler-boards.usecase.js';
import { ManageAccountsUseCase } from './manage-accounts.usecase.js';
import { ManageKeysUseCase } from './manage-keys.usecase.js';
import { ProviderControlsUseCase } from './provider-controls.usecase.js';
import { RequestRefreshUseCase } from './request-refresh.usecase.js';
import { RotateWebhookSecretUseCase } from '../webhook-endpoints/rotate-webhook-secret.usecase.js';
import { WebhookSecretsUseCase } from '../webhook-endpoints/webhook-secrets.usecase.js';
import { WorldControlsUseCase } from './world-controls.usecase.js';

/** The internal admin API of operator.md, on ADMIN_PORT only. */
@Controller('admin')
@UseGuards(AdminTokenGuard)
export class AdminController {
  constructor(
    private readonly accounts: ManageAccountsUseCase,
    private readonly keys: ManageKeysUseCase,
    private readonly webhookSecrets: WebhookSecretsUseCase,
    private readonly rotateSecret: RotateWebhookSecretUseCase,
    private readonly providers: ProviderControlsUseCase,
    private readonly world: WorldControlsUseCase,
    private readonly refresh: RequestRefreshUseCase,
    private readonly crawlerBoards: ManageCrawlerBoardsUseCase,
  ) {}

  @Post('accounts')
  @HttpCode(201)
  createAccount(@Body() body: unknown) {
    return this.accounts.createAccount(parseRequest(AdminAccountCreateRequestSchema, body));
  }

  @Post('accounts/:accountId/credits')
  @HttpCode(200)
  addCredits(@Param('accountId') accountId: string, @Body() body: unknown) {
    return this.accounts.addCredits(accountId, parseRequest(AdminCreditsRequestSchema, body).amount);
  }

  @Post('accounts/:accountId/keys')
  @HttpCode(201)
  createKey(@Param('accountId') accountId: string, @Body() body: unknown) {
    return this.keys.createKey(accountId, parseRequest(AdminKeyCreateRequestSchema, body).mode);
  }

  @Get('accounts/:accountId/webhook-secret')
  webhookSecret(@Param('accountId') accountId: string, @Query() query: unknown) {
    return this.webhookSecrets.secretFor(accountId, parseRequest(AdminWebhookSecretQuerySchema, query).url);
  }

  /** A new secret for the endpoint; the replaced one keeps signing deliveries until `previous_expires_at`. */
  @Post('accounts/:accountId/webhook-secret/rotate')
  @HttpCode(200)
  rotateWebhookSecret(@Param('accountId') accountId: string, @Body() body: unknown) {
    const request = parseRequest(AdminWebhookSecretRotateRequestSchema, body);
    return this.rotateSecret.forAdmin(accountId, request.url, request.previous_expires_in_seconds);
  }

  @Delete('keys/:key')
  @HttpCode(204)
  async revokeKey(@Param('key') key: string): Promise<void> {
    await this.keys.revokeKey(key);
  }

  /** Not in operator.md: every provider's current settings, for operators to look before they change one. */
  @Get('providers')
  async listProviders() {
    return { data: await this.providers.list() };
  }

  @Put('providers/:slug')
  updateProvider(@Param('slug') slug: string, @Body() body: unknown) {
    return this.providers.update(slug, parseRequest(AdminProviderUpdateRequestSchema, body));
  }

  @Post('providers/reset')
  @HttpCode(204)
  async resetProviders(): Promise<void> {
    await this.providers.reset();
  }

  @Post('world/companies')
  @HttpCode(201)
  addCompany(@Body() body: unknown) {
    return this.world.addCompany(parseRequest(AdminWorldCompanySchema, body));
  }

  @Post('world/jobs')
  @HttpCode(201)
  addJob(@Body() body: unknown) {
    return this.world.addJob(parseRequest(AdminWorldJobCreateRequestSchema, body));
  }

  @Patch('world/jobs/:worldJobId')
  patchJob(@Param('worldJobId') worldJobId: string, @Body() body: unknown) {
    return this.world.patchJob(worldJobIdOf(worldJobId), parseRequest(AdminWorldJobPatchRequestSchema, body));
  }

  @Post('world/jobs/:worldJobId/close')
  @HttpCode(200)
  closeJob(@Param('worldJobId') worldJobId: string, @Body() body: unknown) {
    return this.world.closeJob(worldJobIdOf(worldJobId), parseRequest(AdminWorldJobCloseRequestSchema, body));
  }

  @Post('world/jobs/:worldJobId/repost')
  @HttpCode(200)
  repostJob(@Param('worldJobId') worldJobId: string, @Body() body: unknown) {
    parseRequest(AdminWorldJobRepostRequestSchema, body);
    return this.world.repostJob(worldJobIdOf(worldJobId));
  }

  /** The simulated company publishes its openings on this ATS board of the simulator. */
  @Put('world/boards/:ats/:board')
  putWorldBoard(@Param('ats') ats: string, @Param('board') board: string, @Body() body: unknown) {
    const params = parseRequest(AdminWorldBoardParamsSchema, { ats, board });
    return this.world.putBoard(params, parseRequest(AdminWorldBoardPutRequestSchema, body));
  }

  @Get('world/boards')
  listWorldBoards() {
    return this.world.listBoards();
  }

  @Delete('world/boards/:ats/:board')
  @HttpCode(204)
  async deleteWorldBoard(@Param('ats') ats: string, @Param('board') board: string): Promise<void> {
    await this.world.removeBoard(parseRequest(AdminWorldBoardParamsSchema, { ats, board }));
  }

  @Post('refresh')
  @HttpCode(202)
  requestRefresh() {
    return this.refresh.execute();
  }

  /** A job board the own crawler reads on every refresh pass from now on. */
  @Put('crawler/boards/:ats/:board')
  putCrawlerBoard(@Param('ats') ats: string, @Param('board') board: string, @Body() body: unknown) {
    const params = parseRequest(AdminCrawlerBoardParamsSchema, { ats, board });
    return this.crawlerBoards.put(params, parseRequest(AdminCrawlerBoardPutRequestSchema, body));
  }

  @Get('crawler/boards')
  listCrawlerBoards() {
    return this.crawlerBoards.list();
  }

  /** The board is no longer read; its openings close. */
  @Delete('crawler/boards/:ats/:board')
  @HttpCode(204)
  async deleteCrawlerBoard(@Param('ats') ats: string, @Param('board') board: string): Promise<void> {
    await this.crawlerBoards.remove(parseRequest(AdminCrawlerBoardParamsSchema, { ats, board }));
  }

  @Get('refresh/:refreshId')
  refreshStatus(@Param('refreshId') refreshId: string) {
    return this.refresh.status(parseRequest(AdminRefreshParamsSchema, { refresh_id: refreshId }).refresh_id);
  }
}

function worldJobIdOf(worldJobId: string): string {
  return parseRequest(AdminWorldJobParamsSchema, { world_job_id: worldJobId }).world_job_id;
}
