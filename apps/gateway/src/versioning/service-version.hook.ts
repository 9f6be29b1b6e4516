import type { FastifyInstance } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { readRequestedVersion, versionInUse } from './service-version.js';

/**
 * Every response reports the version used in `Service-Version`, unknown routes and 401s
 * included: set here for every request before routing (the asked version, else the current
 * one), and narrowed to the account's pinned version once the key is known.
 */
export function installServiceVersionHeader(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    void reply.header(HEADERS.serviceVersion, versionInUse(readRequestedVersion(request.headers['service-version'])));
    done();
  });
}
