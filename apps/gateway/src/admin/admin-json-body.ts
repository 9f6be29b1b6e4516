import type { FastifyInstance } from 'fastify';
import { ApiError } from '../http/api-error.js';

/**
 * The admin API's JSON body parser. Operators' tools often send `Content-Type: application/json`
 * on every call, also on body-less ones (`POST /providers/reset`, `/refresh`, `.../repost`):
 * an empty body counts as no body instead of a 400. A body that is not JSON is 400
 * `invalid_request` with `param: "body"`. Prototype poisoning is refused as by Fastify's own parser.
 */
export function installAdminJsonParser(fastify: FastifyInstance): void {
  const strictJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    strictJson(request, text, (error, parsed) => {
      if (error) done(new ApiError('invalid_request', 'The request body is not valid JSON.', { param: 'body' }), undefined);
      else done(null, parsed);
    });
  });
}
