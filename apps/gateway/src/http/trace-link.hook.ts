import type { FastifyInstance } from 'fastify';
import { trace } from '@opentelemetry/api';
import { HEADERS } from '@jobs/contracts';
import { traceparentOf } from '@jobs/observability';

/** The request id on the request's server span: the trace viewer finds a request's trace by it. */
export const REQUEST_ID_ATTRIBUTE = 'jobs.request_id';

/**
 * Links an answer and its trace both ways: every answer names its trace in `traceparent` (W3C),
 * beside `X-Request-Id`, errors and unknown routes included, sampled or not (the ids exist either
 * way; the flag says whether the trace was recorded); and the request's server span carries the
 * request id, so support finds the trace from either (docs/operations.md). Runs after the request
 * context hook, before routing, while the HTTP instrumentation's span is active.
 */
export function installTraceLink(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const span = trace.getActiveSpan();
    const traceparent = traceparentOf(span?.spanContext());
    if (traceparent) void reply.header(HEADERS.traceparent, traceparent);
    span?.setAttribute(REQUEST_ID_ATTRIBUTE, request.requestId);
    done();
  });
}
