import { type CanActivate, type ExecutionContext, Inject, Injectable } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';

/**
 * The admin API answers only to `Authorization: Bearer ${ADMIN_TOKEN}`. The header and the
 * expected value are compared as SHA-256 digests in constant time: both are always 32 bytes, so
 * neither the token's content nor its length shows in how long a refusal takes (comparing lengths
 * first would answer a wrong length sooner). The guard keeps only the expected digest.
 */
@Injectable()
export class AdminTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(GATEWAY_CONFIG) config: GatewayConfig) {
    this.expected = digest(`Bearer ${config.ADMIN_TOKEN}`);
  }

  canActivate(context: ExecutionContext): boolean {
    const header = context.switchToHttp().getRequest<FastifyRequest>().headers.authorization;
    if (typeof header !== 'string' || !timingSafeEqual(digest(header), this.expected)) {
      throw new ApiError('unauthorized', 'Send the admin token as "Authorization: Bearer <ADMIN_TOKEN>".');
    }
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
