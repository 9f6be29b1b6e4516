import type { FastifyInstance } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { activeTraceparent } from '@jobs/observability';

/**
 * Every answer names its trace: `traceparent` (W3C) of the request's server span, beside
 * `X-Request-Id`, errors and unknown routes included, sampled or not (the ids exist either way;
 * the flag says whether the trace was recorded). Support goes from either to the trace
 * (docs/operations.md). Set before routing, while the HTTP instrumentation's span is active.
 */
export function installTraceparentHeader(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (_request, reply, done) => {
    const traceparent = activeTraceparent();
    if (traceparent) void reply.header(HEADERS.traceparent, traceparent);
    done();
  });
}
