import { Controller, Get, Inject, Injectable, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import {
  DASHBOARD_SECURITY_HEADERS,
  DashboardFiles,
  defaultDashboardDir,
  type DashboardFile,
} from './dashboard-assets.js';

/** The built dashboard of this gateway (DASHBOARD_DIR), read once per file. */
@Injectable()
export class DashboardBuild {
  readonly files: DashboardFiles;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.files = new DashboardFiles(config.DASHBOARD_DIR ?? defaultDashboardDir());
  }

  /** Sends the page; false when the dashboard is not built. */
  async sendPage(reply: FastifyReply): Promise<boolean> {
    const file = await this.files.page();
    if (file) send(reply, file);
    return file !== null;
  }
}

/** The dashboard's page and its built assets, on the public port at /dashboard. */
@Controller('dashboard')
export class DashboardAssetsController {
  constructor(private readonly build: DashboardBuild) {}

  /**
   * The page at /dashboard (and at /dashboard/, DashboardModule); its asset URLs are absolute
   * (/dashboard/assets/...), its pages are #/ fragments.
   */
  @Get()
  async page(@Res() reply: FastifyReply): Promise<void> {
    if (!(await this.build.sendPage(reply)))
      throw new ApiError('not_found', 'The dashboard is not built: run `npx nx run @jobs/dashboard:build`.');
  }

  @Get('assets/:name')
  async asset(@Param('name') name: string, @Res() reply: FastifyReply): Promise<void> {
    const file = await this.build.files.asset(name);
    if (!file) throw new ApiError('not_found', 'No such dashboard file.');
    send(reply, file);
  }
}

function send(reply: FastifyReply, file: DashboardFile): void {
  void reply
    .headers(DASHBOARD_SECURITY_HEADERS)
    .header('Content-Type', file.type)
    .header('Cache-Control', file.cacheControl)
    .send(file.body);
}
