import type { FastifyInstance } from 'fastify';
import { ERROR_CATALOG } from '@jobs/contracts';
import { ApiError } from '../http/api-error.js';
import { errorEnvelope, type ErrorLinks } from '../http/api-exception.filter.js';
import { apiKeyInUrl } from './api-key-in-url.js';

/**
 * API keys go only in the Authorization header, never in a URL (interface.md): a request whose
 * URL carries one, under any parameter name or in its path, is refused with `400
 * invalid_request` naming where, on every route of the public port (API, MCP, docs, dashboard,
 * sandbox), whether or not the header holds a key too. A URL is copied into browser histories,
 * proxy logs and referrers, so answering such a request would teach callers a habit that leaks
 * their key. As an onRequest hook it answers before any guard: the key is never looked up and
 * nothing is counted against any account's rate limit. Installed after the hooks that name the
 * request, its trace and the version, so the refusal carries all three.
 */
export function installApiKeyInUrlRefusal(fastify: FastifyInstance, links: ErrorLinks): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    const where = apiKeyInUrl(request.url);
    if (where === null) return done();
    const error = new ApiError('invalid_request', refusalMessage(where), { param: where });
    // Answered from the hook: the rest of the hooks, the guards and the handler do not run.
    void reply
      .code(ERROR_CATALOG.invalid_request.status)
      .header('content-type', 'application/json; charset=utf-8')
      .send(errorEnvelope(error, request.requestId, links));
  });
}

function refusalMessage(where: string): string {
  const place = where === 'path' ? 'path' : where === 'query' ? 'query string' : `"${where}" parameter`;
  return (
    `The URL's ${place} carries an API key. Send the key only in the Authorization header, ` +
    `as "Authorization: Bearer <key>", never in a URL; a key sent in a URL may be kept in ` +
    `browser histories and proxy logs, so consider replacing it.`
  );
}
