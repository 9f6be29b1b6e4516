import { Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { readRequestedVersion, versionInUse } from './service-version.js';

/**
 * Without a `Service-Version` header an authenticated request is answered in its account's pinned version
 * (DoorInterceptor).
 */
@Injectable()
export class ServiceVersionGate {
  pass(request: FastifyRequest, reply: FastifyReply): void {
    if (!request.principal) return;
    const requested = readRequestedVersion(request.headers['service-version']);
    // The pinned version came with the key (ApiKeyService): nothing to read here.
    if (requested.kind === 'absent')
      void reply.header(HEADERS.serviceVersion, versionInUse(requested, request.principal.pinnedVersion));
  }
}
