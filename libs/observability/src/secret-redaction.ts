/**
 * What telemetry must never carry, found by shape and by name, as plain functions: our
 * credentials wherever they appear (API keys, webhook signing secrets), and the value of any URL
 * query parameter whose name says it holds a credential (`api_key`, `token`, `X-Amz-Signature`,
 * `password`...). The OpenTelemetry HTTP instrumentation's own redaction matches a fixed list of
 * parameter names exactly; a key pasted under any other name, or into a path, would pass it.
 */

/** What replaces a secret: the word the OpenTelemetry semantic conventions use. */
export const REDACTED = 'REDACTED';

/** API keys (`svc_live_`, `svc_test_`) and webhook signing secrets (`whsec_`), as @jobs/contracts shapes them. */
const SECRET_SHAPE = /(?:svc_(?:live|test)_|whsec_)[A-Za-z0-9_-]+/gi;
const HOLDS_SECRET = new RegExp(SECRET_SHAPE.source, 'i');

/**
 * Parameter or header names that say their value is a credential. A substring match, so
 * `apikey`, `pageToken`, `client_secret` and `Authorization` are caught; a harmless name that
 * happens to match (`keyword`) only loses its value in traces.
 */
const SECRET_NAME =
  /key|token|secret|signature|passw(?:or)?d|pwd|credential|auth|session|cookie|jwt|(?:^|[^a-z])sig(?:[^a-z]|$)/i;

/** Whether `text` holds one of our credentials anywhere in it. */
export function holdsSecret(text: string): boolean {
  return HOLDS_SECRET.test(text);
}

/** Whether a parameter or header of this name carries a credential. */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** `text` with every credential in it replaced. */
export function redactSecrets(text: string): string {
  return holdsSecret(text) ? text.replace(SECRET_SHAPE, REDACTED) : text;
}

/** Percent-decoding that never throws: a malformed sequence is read as it is. */
export function decodeUrlPart(part: string): string {
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return part;
  }
}

/**
 * A query string (with or without its leading `?`) with the values of secret-named parameters
 * and of parameters holding a credential replaced; a name that is itself a credential is
 * replaced too. Everything else is kept byte for byte.
 */
export function redactQuery(query: string): string {
  const mark = query.startsWith('?') ? '?' : '';
  const pairs = (mark ? query.slice(1) : query).split('&').map((pair) => {
    const equals = pair.indexOf('=');
    const rawName = equals < 0 ? pair : pair.slice(0, equals);
    const rawValue = equals < 0 ? null : pair.slice(equals + 1);
    const name = decodeUrlPart(rawName);
    const nameIsSecret = holdsSecret(name);
    const valueIsSecret =
      rawValue !== null && (nameIsSecret || isSecretName(name) || holdsSecret(decodeUrlPart(rawValue)));
    const shownName = nameIsSecret ? REDACTED : rawName;
    return rawValue === null ? shownName : `${shownName}=${valueIsSecret ? REDACTED : rawValue}`;
  });
  return mark + pairs.join('&');
}

/** A URL path with every segment that holds a credential replaced. */
export function redactPath(path: string): string {
  if (!holdsSecret(path) && !path.includes('%')) return path;
  return path
    .split('/')
    .map((segment) => (holdsSecret(decodeUrlPart(segment)) ? REDACTED : segment))
    .join('/');
}

/**
 * A whole URL (`scheme://user:pass@host/path?query#fragment`) or a request target
 * (`/path?query`) with its user information, secret path segments, secret query values and any
 * credential in its fragment replaced.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const fragment = hash < 0 ? '' : url.slice(hash);
  const beforeFragment = hash < 0 ? url : url.slice(0, hash);
  const question = beforeFragment.indexOf('?');
  const query = question < 0 ? '' : beforeFragment.slice(question);
  const base = question < 0 ? beforeFragment : beforeFragment.slice(0, question);
  const withoutUser = base.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, `$1${REDACTED}@`);
  return redactPath(withoutUser) + (query ? redactQuery(query) : '') + redactSecrets(fragment);
}
