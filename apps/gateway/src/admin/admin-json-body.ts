import type { FastifyInstance } from 'fastify';
import { installJsonBodyParser } from '../http/json-body.js';

/**
 * The admin API's JSON body parser. Operators' tools often send `Content-Type: application/json`
 * on every call, also on body-less ones (`POST /providers/reset`, `/refresh`, `.../repost`):
 * an empty body counts as no body instead of a 400. Otherwise the public API's parser: depth
 * bounded, prototype poisoning refused, 400 `invalid_request` with `param: "body"`.
 */
export function installAdminJsonParser(fastify: FastifyInstance): void {
  installJsonBodyParser(fastify, { emptyIsNoBody: true });
}
