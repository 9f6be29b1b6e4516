import { context } from '@opentelemetry/api';
import { getRPCMetadata, RPCType } from '@opentelemetry/core';
import type { FastifyInstance } from 'fastify';

/**
 * Names the matched route (`/v1/searches/:searchId`, never the raw path) to the http
 * instrumentation, which then labels its span and the `http_server_request_duration` histogram
 * with `http_route`: request rate and latency per endpoint at a bounded cardinality.
 */
export function installHttpRouteAttribute(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, _reply, done) => {
    const rpc = getRPCMetadata(context.active());
    const route = request.routeOptions.url;
    if (rpc?.type === RPCType.HTTP && route !== undefined) rpc.route = route;
    done();
  });
}
