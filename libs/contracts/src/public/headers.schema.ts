/**
 * Header names and header value schemas.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `Idempotency-Key`: 1 to 255 characters of visible ASCII (no spaces or control characters).
 * - API keys: `svc_live_` or `svc_test_` followed by 1 to 128 characters of `[A-Za-z0-9_-]`.
 * - The name of the response header reporting the version used is "not shown"; the service
 *   answers with `Service-Version` as well.
 */
import { z } from 'zod';

export const SERVICE_VERSION = '2026-10-01';
export const ServiceVersionSchema = z.literal(SERVICE_VERSION);
export type ServiceVersion = z.infer<typeof ServiceVersionSchema>;

export const HEADERS = {
  serviceVersion: 'Service-Version',
  serviceSignature: 'Service-Signature',
  idempotencyKey: 'Idempotency-Key',
  requestId: 'X-Request-Id',
  /** W3C Trace Context: the trace of the request's work in the service, for support. */
  traceparent: 'traceparent',
  creditsCharged: 'X-Credits-Charged',
  creditsRemaining: 'X-Credits-Remaining',
  rateLimitLimit: 'RateLimit-Limit',
  rateLimitRemaining: 'RateLimit-Remaining',
  rateLimitReset: 'RateLimit-Reset',
  retryAfter: 'Retry-After',
  authorization: 'Authorization',
} as const;

export const IDEMPOTENCY_KEY_MAX_LENGTH = 255;
export const IdempotencyKeySchema = z
  .string()
  .min(1)
  .max(IDEMPOTENCY_KEY_MAX_LENGTH)
  .regex(/^[\x21-\x7e]+$/, 'Idempotency-Key must be visible ASCII characters');
export type IdempotencyKey = z.infer<typeof IdempotencyKeySchema>;

export const API_KEY_PREFIXES = { live: 'svc_live_', test: 'svc_test_' } as const;

export const ApiKeyModeSchema = z.enum(['live', 'test']);
export type ApiKeyMode = z.infer<typeof ApiKeyModeSchema>;

export const ApiKeySchema = z.string().regex(/^svc_(live|test)_[A-Za-z0-9_-]{1,128}$/, 'Malformed API key');
export type ApiKey = z.infer<typeof ApiKeySchema>;

/** `live` or `test` from a well-formed key; undefined for anything else. */
export function apiKeyMode(key: string): ApiKeyMode | undefined {
  if (!ApiKeySchema.safeParse(key).success) return undefined;
  return key.startsWith(API_KEY_PREFIXES.live) ? 'live' : 'test';
}

/** `Authorization: Bearer <API_KEY>`; yields the key. */
export const BearerAuthorizationSchema = z
  .string()
  .regex(/^Bearer \S+$/, 'Expected "Bearer <API_KEY>"')
  .transform((header) => header.slice('Bearer '.length))
  .pipe(ApiKeySchema);
