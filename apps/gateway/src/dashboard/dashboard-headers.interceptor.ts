import { type CallHandler, type ExecutionContext, Injectable, type NestInterceptor } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { Observable } from 'rxjs';
import { DASHBOARD_SECURITY_HEADERS } from './dashboard-assets.js';

/** Every dashboard API answer: never cached (it is one account's), with the page's security headers. */
@Injectable()
export class DashboardHeadersInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    void context
      .switchToHttp()
      .getResponse<FastifyReply>()
      .headers({ ...DASHBOARD_SECURITY_HEADERS, 'Cache-Control': 'no-store' });
    return next.handle();
  }
}
