import { type CanActivate, createParamDecorator, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../http/api-error.js';
import { RateLimitGate } from '../limits/rate-limit.gate.js';
import type { Principal } from './api-key.js';
import { ApiKeyService } from './api-key.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    principal?: Principal;
  }
}

/** Bearer API key in `Authorization`, nowhere else; anything missing, malformed or revoked is 401. */
@Injectable()
export class ApiKeyGuard implements CanActivate {
  constructor(
    private readonly keys: ApiKeyService,
    private readonly limits: RateLimitGate,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<FastifyRequest>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const principal = match
      ? await this.keys.resolve(match[1]!, this.limits.keyLookups(request, http.getResponse<FastifyReply>()))
      : null;
    if (!principal) throw new ApiError('unauthorized', 'Send a valid API key as "Authorization: Bearer <key>".');
    request.principal = principal;
    return true;
  }
}

export const CurrentPrincipal = createParamDecorator((_: unknown, context: ExecutionContext): Principal => {
  const principal = context.switchToHttp().getRequest<FastifyRequest>().principal;
  if (!principal) throw new ApiError('unauthorized', 'Missing API key.');
  return principal;
});

export const RequestId = createParamDecorator(
  (_: unknown, context: ExecutionContext): string => context.switchToHttp().getRequest<FastifyRequest>().requestId,
);
