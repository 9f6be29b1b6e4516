import { API_KEY_PREFIXES } from '@jobs/contracts';
import { decodeUrlPart } from '@jobs/observability';

/** An API key's prefix followed by a key character (`ApiKeySchema` of @jobs/contracts), anywhere in a text. */
const API_KEY_IN_TEXT = new RegExp(`(?:${Object.values(API_KEY_PREFIXES).join('|')})[A-Za-z0-9_-]`, 'i');

/**
 * Where a request URL (`request.url`: path and query, as sent) carries something shaped like an
 * API key: the name of the query parameter holding it, `query` when a parameter's name is the key
 * itself (never echoed), `path` for a path segment; null when it carries none. Percent-encoding is
 * read, so `svc%5Flive%5F...` is found too.
 */
export function apiKeyInUrl(url: string): string | null {
  if (!url.includes('%') && !API_KEY_IN_TEXT.test(url)) return null;
  const question = url.indexOf('?');
  const path = question < 0 ? url : url.slice(0, question);
  if (path.split('/').some((segment) => holdsApiKey(segment))) return 'path';
  if (question < 0) return null;
  for (const pair of url.slice(question + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = decodeUrlPart(equals < 0 ? pair : pair.slice(0, equals));
    if (API_KEY_IN_TEXT.test(name)) return 'query';
    if (equals >= 0 && holdsApiKey(pair.slice(equals + 1))) return name;
  }
  return null;
}

function holdsApiKey(urlPart: string): boolean {
  return API_KEY_IN_TEXT.test(decodeUrlPart(urlPart));
}
