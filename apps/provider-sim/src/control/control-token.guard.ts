import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { apiError } from '../common/api-error.js';
import { SIM_OPTIONS, type SimOptions } from '../config/sim-options.js';

/**
 * The control routes change what every partner answers (failures, latency, the world itself):
 * they answer only to `Authorization: Bearer ${ADMIN_TOKEN}`, the gateway admin API's token.
 * Compared as digests so neither the length nor the content leaks through timing.
 */
@Injectable()
export class ControlTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(SIM_OPTIONS) options: SimOptions) {
    this.expected = digest(`Bearer ${options.adminToken}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (typeof header !== 'string' || !timingSafeEqual(digest(header), this.expected)) {
      throw apiError(401, 'unauthorized', 'Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
