import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newId, requestContext } from '@jobs/observability';

declare module 'fastify' {
  interface FastifyRequest {
    requestId: string;
  }
}

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Gives every request its public id (`req_...`), echoes it in `X-Request-Id` on every response
 * (errors included) and runs the rest of the request inside the request context, so logs and
 * Kafka messages carry it.
 */
export function installRequestContext(fastify: FastifyInstance): void {
  fastify.decorateRequest('requestId', '');
  fastify.addHook('onRequest', (request: FastifyRequest, reply, done) => {
    request.requestId = newId('req');
    void reply.header(REQUEST_ID_HEADER, request.requestId);
    requestContext.run({ requestId: request.requestId, stages: [] }, done);
  });
}
