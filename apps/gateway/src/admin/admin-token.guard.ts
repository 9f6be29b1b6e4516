import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';

/** The admin API answers only to `Authorization: Bearer ${ADMIN_TOKEN}`. */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.expected = Buffer.from(`Bearer ${config.ADMIN_TOKEN}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization ?? '';
    const given = Buffer.from(header);
    if (given.length !== this.expected.length || !timingSafeEqual(given, this.expected)) {
      throw new ApiError('unauthorized', 'Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
    return true;
  }
}
