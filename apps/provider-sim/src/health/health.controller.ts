import { Controller, Get, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { WorldService } from '../world/world.service.js';

@Controller()
export class HealthController {
  constructor(private readonly world: WorldService) {}

  @Get('livez')
  livez(): { status: 'ok' } {
    return { status: 'ok' };
  }

  /** 200 once the world is generated. */
  @Get('readyz')
  readyz(@Res({ passthrough: true }) reply: FastifyReply): { status: string } {
    reply.status(this.world.ready ? 200 : 503);
    return { status: this.world.ready ? 'ready' : 'not_ready' };
  }
}
