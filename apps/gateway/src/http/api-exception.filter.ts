import { type ArgumentsHost, Catch, type ExceptionFilter, HttpException } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CATALOG, errorDocUrl, type ErrorCode, type ErrorEnvelope } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { ApiError } from './api-error.js';
import { StoredResponse } from './stored-response.js';

/** The addresses an error envelope links to, from the gateway's configuration. */
export interface ErrorLinks {
  /** PUBLIC_BASE_URL: every envelope's `doc_url` is `<it>/docs/errors#<code>`. */
  publicBaseUrl: string;
  /** PUBLIC_PRICING_URL: `upgrade_url` of `insufficient_credits` and `plan_required`. */
  pricingUrl: string;
}

export const errorLinks = (config: { PUBLIC_BASE_URL: string; PUBLIC_PRICING_URL: string }): ErrorLinks => ({
  publicBaseUrl: config.PUBLIC_BASE_URL,
  pricingUrl: config.PUBLIC_PRICING_URL,
});

/**
 * Every failure leaves as the public error envelope with the request's id; nothing ever answers
 * a bare 500 page or a stack trace. Unknown failures are logged and become `internal_error`.
 */
@Catch()
export class ApiExceptionFilter implements ExceptionFilter {
  constructor(
    private readonly logger: Logger,
    private readonly links: ErrorLinks,
  ) {}

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const reply = http.getResponse<FastifyReply>();
    const request = http.getRequest<FastifyRequest>();
    if (exception instanceof StoredResponse) {
      for (const [name, value] of Object.entries(exception.headers)) void reply.header(name, value);
      void reply.status(exception.status).send(exception.body);
      return;
    }
    const error = this.toApiError(exception);
    const status = error.status ?? ERROR_CATALOG[error.code].status;
    // A refusal at capacity is counted (gateway_admission_refused_total), not logged one by one.
    if (status >= 500 && status !== 503)
      this.logger.error({ err: exception, request_id: request.requestId }, 'request failed');
    for (const [name, value] of Object.entries(error.headers)) void reply.header(name, value);
    void reply
      .status(status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorEnvelope(error, request.requestId, this.links));
  }

  private toApiError(exception: unknown): ApiError {
    if (exception instanceof ApiError) return exception;
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const code: ErrorCode =
        status === 404
          ? 'not_found'
          : status === 401
            ? 'unauthorized'
            : status === 413 || (status >= 400 && status < 500)
              ? 'invalid_request'
              : 'internal_error';
      // a body in another media type than JSON, or over the size bound, may arrive as Nest's
      // own exception: said the same way as Fastify's (bodyErrorMessage)
      if (status === 415 || status === 413)
        return new ApiError(
          'invalid_request',
          bodyErrorMessage(status === 415 ? 'FST_ERR_CTP_INVALID_MEDIA_TYPE' : 'FST_ERR_CTP_BODY_TOO_LARGE'),
          { param: 'body' },
        );
      const message =
        status === 404
          ? 'No such endpoint.'
          : code === 'internal_error'
            ? 'Something went wrong on our side. Retry with the same Idempotency-Key.'
            : exception.message;
      return new ApiError(code, message);
    }
    const fastifyCode = (exception as { code?: string } | null)?.code;
    if (typeof fastifyCode === 'string' && fastifyCode.startsWith('FST_')) {
      const statusCode = (exception as { statusCode?: number }).statusCode ?? 400;
      if (statusCode < 500) return new ApiError('invalid_request', bodyErrorMessage(fastifyCode), { param: 'body' });
    }
    return new ApiError('internal_error', 'Something went wrong on our side. Retry with the same Idempotency-Key.');
  }
}

/**
 * The public error envelope of an ApiError; `request_id` must equal the response's X-Request-Id,
 * `doc_url` is the code's section of the errors page served on this host (PUBLIC_BASE_URL),
 * `upgrade_url` the operator's pricing page (PUBLIC_PRICING_URL).
 */
export function errorEnvelope(error: ApiError, requestId: string, links: ErrorLinks): ErrorEnvelope {
  return {
    error: {
      type: ERROR_CATALOG[error.code].type,
      code: error.code,
      message: error.message,
      doc_url: errorDocUrl(links.publicBaseUrl, error.code),
      request_id: requestId,
      ...error.extras,
      ...(error.code === 'insufficient_credits' || error.code === 'plan_required'
        ? { upgrade_url: error.extras.upgrade_url ?? links.pricingUrl }
        : {}),
    },
  };
}

function bodyErrorMessage(code: string): string {
  switch (code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the body as JSON, with the header `Content-Type: application/json`.';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is larger than 1 MiB.';
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The JSON body is empty.';
    default:
      return 'The request body is not valid JSON.';
  }
}
