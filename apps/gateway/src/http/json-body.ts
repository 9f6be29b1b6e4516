import type { FastifyInstance } from 'fastify';
import { ApiError } from './api-error.js';

/**
 * The deepest JSON body any route takes: the deepest real one (an MCP call wrapping a search's
 * filters) is about 7 levels. Code that walks a body (validation, the Idempotency-Key fingerprint)
 * recurses once per level, so the bound is checked on the raw text, before anything recurses.
 */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether a JSON text nests objects and arrays deeper than `maxDepth`. One pass, no recursion,
 * no allocation; brackets inside strings do not count. Malformed text is left to the parser.
 */
export function jsonNestsDeeperThan(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      depth--;
    }
  }
  return false;
}

export interface JsonBodyOptions {
  /** An empty body with a JSON content type counts as no body (the admin API's body-less POSTs). */
  emptyIsNoBody: boolean;
}

/**
 * Replaces the `application/json` parser: the depth bound first, then Fastify's own parser with
 * prototype poisoning refused (secure-json-parse). Its size bound is Fastify's `bodyLimit`, checked
 * while the body streams in. Every refusal is 400 `invalid_request` with `param: "body"`.
 */
export function installJsonBodyParser(fastify: FastifyInstance, options: JsonBodyOptions): void {
  const strictJson = fastify.getDefaultJsonParser('error', 'error');
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (options.emptyIsNoBody && text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(
        new ApiError('invalid_request', `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, {
          param: 'body',
        }),
        undefined,
      );
      return;
    }
    strictJson(request, text, (error, parsed) => {
      if (!error) done(null, parsed);
      else if (text.trim() === '')
        done(new ApiError('invalid_request', 'The JSON body is empty.', { param: 'body' }), undefined);
      else done(new ApiError('invalid_request', 'The request body is not valid JSON.', { param: 'body' }), undefined);
    });
  });
}
