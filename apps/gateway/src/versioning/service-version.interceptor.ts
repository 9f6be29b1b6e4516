import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Observable } from 'rxjs';
import { HEADERS } from '@jobs/contracts';
import { AccountSettingsReader } from '../limits/account-settings.js';
import { readRequestedVersion, versionInUse } from './service-version.js';

/** Without a `Service-Version` header an authenticated request is answered in its account's pinned version. */
@Injectable()
export class ServiceVersionInterceptor implements NestInterceptor {
  constructor(private readonly accounts: AccountSettingsReader) {}

  async intercept(context: ExecutionContext, next: CallHandler): Promise<Observable<unknown>> {
    if (context.getType() !== 'http') return next.handle();
    const request = context.switchToHttp().getRequest<FastifyRequest>();
    const requested = readRequestedVersion(request.headers['service-version']);
    if (requested.kind === 'absent' && request.principal) {
      const account = await this.accounts.of(request);
      void context.switchToHttp().getResponse<FastifyReply>().header(HEADERS.serviceVersion, versionInUse(requested, account?.pinnedVersion));
    }
    return next.handle();
  }
}
