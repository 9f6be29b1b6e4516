import { Controller, Get, HttpCode, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { ReadinessRegistry } from './readiness.registry.js';

/** Liveness and readiness, the probes of every service (operator.md "Readiness"). */
@Controller()
export class HealthController {
  constructor(private readonly readiness: ReadinessRegistry) {}

  @Get('livez')
  @HttpCode(200)
  livez(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Get('readyz')
  async readyz(
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<{ status: string; checks: Record<string, boolean> }> {
    const report = await this.readiness.report();
    reply.status(report.ready ? 200 : 503);
    return { status: report.ready ? 'ready' : 'not_ready', checks: report.checks };
  }
}
