import { CanonicalDepthError, digestOf } from '@jobs/cursors';
import { ApiError } from '../http/api-error.js';

/**
 * SHA-256 of the canonical JSON of a request body: what "the same body" means for Idempotency-Key.
 * A body too deep to canonicalise is the client's error (the body parser bounds depth first).
 */
export function bodyFingerprint(body: unknown): string {
  try {
    return digestOf(body ?? null, 'hex');
  } catch (error) {
    if (error instanceof CanonicalDepthError)
      throw new ApiError('invalid_request', 'The request body nests too deeply.', { param: 'body' });
    throw error;
  }
}
