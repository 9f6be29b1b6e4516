import { type CanActivate, type ExecutionContext, Injectable } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import { ApiError } from '../http/api-error.js';
import { readRequestedVersion, unsupportedVersionMessage } from './service-version.js';

/**
 * Refuses an unsupported `Service-Version` with 400 before anything else (a global guard runs
 * before the API key guard): the caller asked for a contract this service cannot honour.
 */
@Injectable()
export class ServiceVersionGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const requested = readRequestedVersion(
      context.switchToHttp().getRequest<FastifyRequest>().headers['service-version'],
    );
    if (requested.kind === 'unsupported') {
      throw new ApiError('invalid_request', unsupportedVersionMessage(requested.value), {
        param: HEADERS.serviceVersion,
      });
    }
    return true;
  }
}
