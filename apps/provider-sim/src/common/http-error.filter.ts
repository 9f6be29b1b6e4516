import { Catch, HttpException, Logger, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import type { FastifyReply } from 'fastify';

const CODES: Record<number, string> = {
  400: 'invalid_request',
  404: 'not_found',
  405: 'method_not_allowed',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
};

/**
 * Every error not answered by a provider view leaves in the admin envelope
 * `{error: {code, param, message}}`; bodies that already are envelopes pass unchanged.
 */
@Catch()
export class HttpErrorFilter implements ExceptionFilter {
  private readonly logger = new Logger(HttpErrorFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const reply = host.switchToHttp().getResponse<FastifyReply>();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      if (typeof body === 'object' && body !== null && 'error' in body && typeof body.error === 'object') {
        void reply.status(status).send(body);
        return;
      }
      void reply
        .status(status)
        .send({ error: { code: CODES[status] ?? 'error', param: null, message: exception.message } });
      return;
    }
    const status = (exception as { statusCode?: unknown })?.statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      void reply.status(status).send({
        error: { code: CODES[status] ?? 'invalid_request', param: null, message: (exception as Error).message },
      });
      return;
    }
    this.logger.error(exception instanceof Error ? (exception.stack ?? exception.message) : String(exception));
    void reply.status(500).send({ error: { code: 'internal_error', param: null, message: 'internal error' } });
  }
}
