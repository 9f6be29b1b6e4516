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

/**
 * The charset a JSON content type names, lower-cased, or undefined when it names none
 * (`application/json; charset="UTF-8"` -> `utf-8`). JSON on the web is UTF-8 (RFC 8259 §8.1).
 */
export function charsetOf(contentType: string | undefined): string | undefined {
  for (const parameter of (contentType ?? '').split(';').slice(1)) {
    const [name, ...value] = parameter.split('=');
    if (name?.trim().toLowerCase() === 'charset')
      return value
        .join('=')
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
  }
  return undefined;
}

const UTF8 = new Set(['utf-8', 'utf8']);

export interface JsonBodyOptions {
  /** An empty body with a JSON content type counts as no body (the admin API's body-less POSTs). */
  emptyIsNoBody: boolean;
  /**
   * Paths whose body may be a JSON array as well as an object (a JSON-RPC batch). Every other
   * body is an object: `null`, a number or a list is no request any route takes.
   */
  arrayBodyPaths?: readonly string[];
}

const bodyError = (message: string) => new ApiError('invalid_request', message, { param: 'body' });

/**
 * Where a parsed body holds the NUL character (`\u0000`), in a value or a key, as the error's
 * `param` (`filters.job_family_or[0]`, or `body` for a key of the top level); undefined when
 * nowhere. No stored or searched text may hold it (PostgreSQL's text cannot), so it is refused
 * at the door, for every route at once, rather than failing deep inside a service.
 */
export function nulCharacterAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = nulCharacterAt(value[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (key.includes('\u0000')) return path || 'body';
    const found = nulCharacterAt(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Replaces the `application/json` parser: the depth bound first, then Fastify's own parser with
 * prototype poisoning refused (secure-json-parse), then the shape: an object (or, where a route
 * takes one, an array). A charset other than UTF-8 is refused, not read as UTF-8. Its size bound is
 * Fastify's `bodyLimit`, checked while the body streams in. Every refusal is 400 `invalid_request`
 * with `param: "body"`.
 */
export function installJsonBodyParser(fastify: FastifyInstance, options: JsonBodyOptions): void {
  const strictJson = fastify.getDefaultJsonParser('error', 'error');
  if (fastify.hasContentTypeParser('application/json')) fastify.removeContentTypeParser('application/json');
  const arrayBodyPaths = new Set(options.arrayBodyPaths ?? []);
  fastify.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const charset = charsetOf(request.headers['content-type']);
    if (charset !== undefined && !UTF8.has(charset)) {
      done(
        bodyError(
          `Send JSON as UTF-8: \`Content-Type: application/json\` (this ` + `request said charset=${charset}).`,
        ),
        undefined,
      );
      return;
    }
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (options.emptyIsNoBody && text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonNestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(bodyError(`The request body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
      return;
    }
    strictJson(request, text, (error, parsed: unknown) => {
      if (!error) {
        const isObject = typeof parsed === 'object' && parsed !== null;
        const path = request.url.split('?', 1)[0]!;
        if (!isObject || (Array.isArray(parsed) && !arrayBodyPaths.has(path))) {
          done(bodyError('The request body must be a JSON object.'), undefined);
          return;
        }
        // JSON can carry NUL only escaped, so a text without the escape holds none
        const nul = text.includes('\\u0000') ? nulCharacterAt(parsed) : undefined;
        if (nul !== undefined)
          done(
            new ApiError('invalid_request', 'Text may not contain the NUL character (\\u0000).', { param: nul }),
            undefined,
          );
        else done(null, parsed);
      } else if (text.trim() === '') done(bodyError('The JSON body is empty.'), undefined);
      else done(bodyError('The request body is not valid JSON.'), undefined);
    });
  });
}
