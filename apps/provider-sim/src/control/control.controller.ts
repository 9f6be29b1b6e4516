import { Body, Controller, Get, HttpCode, Param, Patch, Post, Put, Query, UseGuards } from '@nestjs/common';
import { apiError, parseInput } from '../common/api-error.js';
import { ProviderBehaviourService, type ProviderSettings } from '../providers/provider-behaviour.service.js';
import {
  ClockBody,
  CloseJobBody,
  CompanyBody,
  GroundTruthQuery,
  NewJobBody,
  PatchJobBody,
  ProviderSettingsBody,
  ProviderSlugSchema,
  toJobPatch,
  toNewJob,
} from './control.schema.js';
import { ControlService } from './control.service.js';
import { ControlTokenGuard } from './control-token.guard.js';
import { toWorldJobDto } from './world-job.dto.js';

/**
 * Internal control API, behind the admin token (ControlTokenGuard): the gateway's admin server
 * proxies operator.md's `/admin/providers/...` and `/admin/world/...` here.
 */
@Controller('_control')
@UseGuards(ControlTokenGuard)
export class ControlController {
  constructor(
    private readonly control: ControlService,
    private readonly behaviour: ProviderBehaviourService,
  ) {}

  @Get('providers')
  providers(): { providers: ProviderSettings[] } {
    return { providers: this.behaviour.all() };
  }

  @Post('providers/reset')
  @HttpCode(204)
  reset(): void {
    this.behaviour.reset();
  }

  @Put('providers/:slug')
  updateProvider(@Param('slug') slug: string, @Body() body: unknown): ProviderSettings {
    const parsed = ProviderSlugSchema.safeParse(slug);
    if (!parsed.success) throw apiError(404, 'not_found', `unknown provider ${slug}`, 'slug');
    return this.behaviour.update(parsed.data, parseInput(ProviderSettingsBody, body));
  }

  @Post('world/companies')
  @HttpCode(201)
  addCompany(@Body() body: unknown): { domain: string; name: string } {
    return this.control.addCompany(parseInput(CompanyBody, body));
  }

  @Post('world/jobs')
  @HttpCode(201)
  addJob(@Body() body: unknown): { world_job_id: string } {
    return { world_job_id: this.control.addJob(toNewJob(parseInput(NewJobBody, body))).id };
  }

  @Get('world/jobs/:id')
  job(@Param('id') id: string): Record<string, unknown> {
    return toWorldJobDto(this.control.job(id));
  }

  @Patch('world/jobs/:id')
  patchJob(@Param('id') id: string, @Body() body: unknown): Record<string, unknown> {
    return toWorldJobDto(this.control.patchJob(id, toJobPatch(parseInput(PatchJobBody, body))));
  }

  @Post('world/jobs/:id/close')
  @HttpCode(200)
  closeJob(@Param('id') id: string, @Body() body: unknown): Record<string, unknown> {
    return toWorldJobDto(this.control.closeJob(id, parseInput(CloseJobBody, body).reason));
  }

  @Post('world/jobs/:id/repost')
  @HttpCode(200)
  repostJob(@Param('id') id: string): Record<string, unknown> {
    return toWorldJobDto(this.control.repostJob(id));
  }

  @Get('world/stats')
  stats(): unknown {
    return this.control.stats();
  }

  /** The market's clock: world time now and its speed (a benchmark lets weeks pass in minutes). */
  @Get('world/clock')
  clock(): { now: string; speed: number } {
    return this.control.clock();
  }

  @Put('world/clock')
  setClock(@Body() body: unknown): { now: string; speed: number } {
    return this.control.setClockSpeed(parseInput(ClockBody, body).speed);
  }

  /** Evaluation only. */
  @Get('ground-truth')
  groundTruth(@Query() query: unknown): unknown {
    return this.control.groundTruth(parseInput(GroundTruthQuery, query));
  }
}
