import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { HEADERS } from '@jobs/contracts';
import { readRequestedVersion, versionInUse } from './service-version.js';

/** Without a `Service-Version` header an authenticated request is answered in its account's pinned version. */
@Injectable()
export class ServiceVersionInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const requested = readRequestedVersion(request.headers['service-version']);
    if (requested.kind === 'absent' && request.principal) {
      // The pinned version came with the key (ApiKeyService): nothing to read here.
      void context.switchToHttp().getResponse<FastifyReply>().header(HEADERS.serviceVersion, versionInUse(requested, request.principal.pinnedVersion));
    }
    return next.handle();
  }
}
