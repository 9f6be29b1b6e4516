import type { ServerResponse } from 'node:http';
import type { FastifyError } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { activeTraceparent, newId } from '@jobs/observability';
import { ApiError } from './api-error.js';
import { errorEnvelope, type ErrorLinks } from './api-exception.filter.js';
import { REQUEST_ID_HEADER } from './request-context.hook.js';

/** Path parameters long enough for any id we issue, and for a validator to refuse the rest with 400. */
export const MAX_PARAM_LENGTH = 2048;

/**
 * Errors Fastify raises while routing, before any hook runs (a malformed URL, an oversized
 * parameter): they still leave as the public envelope, with a request id of their own.
 */
export function routerErrorHandler(links: ErrorLinks) {
  return (error: FastifyError, request: { requestId?: string }, reply: { raw: ServerResponse }): void => {
    const requestId = request.requestId || newId('req');
    const apiError = new ApiError(
      'invalid_request',
      error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'A path parameter is too long.' : 'The request URL is malformed.',
      { param: 'path' },
    );
    const traceparent = activeTraceparent();
    reply.raw.writeHead(400, {
      [REQUEST_ID_HEADER]: requestId,
      ...(traceparent ? { [HEADERS.traceparent]: traceparent } : {}),
      'content-type': 'application/json; charset=utf-8',
    });
    reply.raw.end(JSON.stringify(errorEnvelope(apiError, requestId, links)));
  };
}
