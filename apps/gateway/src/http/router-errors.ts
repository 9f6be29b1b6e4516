import type { ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
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

/** How long a connection refused at the HTTP layer stays open for its client to read the answer. */
const CLIENT_ERROR_LINGER_MS = 5_000;

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (headers or URL past the 16 KB
 * bound, bytes that are not HTTP, a request that took too long to arrive): Fastify's own JSON
 * would answer them, so they get the public envelope here, with a request id of their own. The
 * connection cannot carry another request; it is ended after the answer and destroyed only after
 * a linger, since destroying it with unread bytes would reset it before the client read the answer.
 */
export function clientErrorHandler(links: ErrorLinks) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const [message, param] =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? ['The request headers, the URL included, are larger than 16 KB.', 'headers']
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? ['The request did not arrive in time.', 'body']
          : ['The request is not valid HTTP/1.1.', 'headers'];
    const requestId = newId('req');
    const body = JSON.stringify(errorEnvelope(new ApiError('invalid_request', message, { param }), requestId, links));
    if (socket.writable)
      socket.end(
        // `invalid_request` is 400 whatever went wrong (docs/security.md "Hostile request bodies")
        'HTTP/1.1 400 Bad Request\r\n' +
          `${REQUEST_ID_HEADER}: ${requestId}\r\ncontent-type: application/json; charset=utf-8\r\n` +
          `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
      );
    const linger = setTimeout(() => socket.destroy(), CLIENT_ERROR_LINGER_MS).unref();
    socket.once('close', () => clearTimeout(linger));
    // whatever else the client sends is read and dropped, so closing never finds unread bytes
    socket.resume();
  };
}
