import { digestOf } from '@jobs/cursors';
import { newId } from '@jobs/observability';
import type { IdempotencyClaim } from './idempotency.gate.js';

/**
 * The id of what a request makes (`srch_`, `wat_`, `rot_`, `rpl_`): under an Idempotency-Key it is derived
 * from the claim (account, mode, route, key) and the request's body, so a retry after a 5xx names
 * the same thing and the service that makes it makes it once, while the key reused after its
 * record expired (its first claim's moment is another) makes something new. Without a key, a fresh id.
 * `kind` keeps each prefix's digests apart.
 */
export function claimedId(
  prefix: 'srch' | 'wat' | 'rot' | 'rpl',
  kind: string,
  claim: Pick<IdempotencyClaim, 'key' | 'record'> | undefined,
): string {
  if (!claim) return newId(prefix);
  const { fingerprint, claimed_at: at } = claim.record;
  const digest = digestOf({ [kind]: claim.key, body: fingerprint, ...(at === undefined ? {} : { at }) }, 'base64url');
  return `${prefix}_${digest.slice(0, 24)}`;
}
