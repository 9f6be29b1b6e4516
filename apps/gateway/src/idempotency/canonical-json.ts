import { digestOf } from '@jobs/cursors';

/** SHA-256 of the canonical JSON of a request body: what "the same body" means for Idempotency-Key. */
export function bodyFingerprint(body: unknown): string {
  return digestOf(body ?? null, 'hex');
}
