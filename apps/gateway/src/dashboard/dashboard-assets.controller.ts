import { Controller, Get, Inject, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { DASHBOARD_SECURITY_HEADERS, DashboardFiles, defaultDashboardDir, type DashboardFile } from './dashboard-assets.js';

/** The dashboard's page and its built assets, on the public port at /dashboard. */
@Controller('dashboard')
export class DashboardAssetsController {
  private readonly files: DashboardFiles;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.files = new DashboardFiles(config.DASHBOARD_DIR ?? defaultDashboardDir());
  }

  /** The page at /dashboard; its asset URLs are absolute (/dashboard/assets/...), its pages are #/ fragments. */
  @Get()
  async page(@Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.page();
    if (!file) throw new ApiError('not_found', 'The dashboard is not built: run `npx nx run @jobs/dashboard:build`.');
    send(reply, file);
  }

  /**
   * The same page at /dashboard/, the address people type and the build's own base. Nest drops a
   * route's trailing slash, so it is this parameter, empty for /dashboard/ (the router's static
   * routes, assets/ and api/, come first); any other name under /dashboard/ is not a page.
   */
  @Get(':page')
  async pageWithSlash(@Param('page') page: string, @Res() reply: FastifyReply): Promise<void> {
    if (page !== '') throw new ApiError('not_found', 'No such dashboard page: the dashboard is at /dashboard/.');
    await this.page(reply);
  }

  @Get('assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.files.asset(name);
    if (!file) throw new ApiError('not_found', 'No such dashboard file.');
    send(reply, file);
  }
}

function send(reply: FastifyReply, file: DashboardFile): void {
  void reply.headers(DASHBOARD_SECURITY_HEADERS).header('Content-Type', file.type).header('Cache-Control', file.cacheControl).send(file.body);
}
