import { ERROR_CATALOG, HEADERS, type SearchResponded } from '@jobs/contracts';
import { ApiError } from '../http/api-error.js';
import { errorEnvelope, type ErrorLinks } from '../http/api-exception.filter.js';

/** A finished response as it went out: replayed byte for byte. */
export interface StoredHttpResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
  /** The body is sealed (it holds a secret): `ReplaySealer` opens it for a replay. */
  sealed?: boolean;
}

/**
 * What Redis holds under one Idempotency-Key (scoped to account, key mode, method and path):
 * - `running`: a request owns the key until `lease_until`, or until its gateway process stops
 *   renewing its liveness (`owner`), whichever comes first;
 * - `failed`: the owner answered 5xx; the next retry may re-attach (sync search) or re-run;
 * - `done`: the final response (2xx or 4xx), replayed to every retry with the same body.
 */
export interface IdempotencyRecord {
  fingerprint: string;
  state: 'running' | 'failed' | 'done';
  /** The owning request's id; for the sync search also the search id. */
  request_id: string;
  lease_until: number;
  /** The owning gateway process (GatewayLiveness.incarnation); absent in records of older versions. */
  owner?: string;
  service_version: string;
  response?: StoredHttpResponse;
  /**
   * When the key was first claimed (ms), kept by every request that takes it over: what a request
   * makes under the key is named by it too (`claimedId`), so the key reused after its record
   * expired makes something new. Absent from records of older versions, whose ids did without it.
   */
  claimed_at?: number;
}

/** The record a request that takes the key over writes: its own, under the key's first claim. */
export function takingOver(record: IdempotencyRecord, existing: IdempotencyRecord): IdempotencyRecord {
  const { claimed_at: _own, ...rest } = record;
  return existing.claimed_at === undefined ? rest : { ...rest, claimed_at: existing.claimed_at };
}

/**
 * How a key keeps an answer: 2xx and 4xx (up to `KEPT_REFUSAL_BYTES_MAX`) are final and replayed
 * (`kept`), but for answers that say "not now" rather than "not this request", a 402 (top up) and a
 * 429 (wait `Retry-After`): nothing was done or charged and the retry the spec advises must run, so
 * the record is dropped (`forgotten`) and the same key and body run afresh. A 5xx is not final
 * (`failed`): a retry re-attaches or runs again.
 */
export function keepingOf(status: number, bodyBytes = 0): 'kept' | 'forgotten' | 'failed' {
  if (status >= 500) return 'failed';
  if (status === 402 || status === 429) return 'forgotten';
  // A refusal larger than any error the service writes is not kept for a day: a refusal is the
  // same for the same request, so its retry is refused again at once, and a client cannot fill
  // the shared Redis with answers that cost it one request each.
  return status >= 400 && bodyBytes > KEPT_REFUSAL_BYTES_MAX ? 'forgotten' : 'kept';
}

/** The largest refusal (4xx) a key keeps; the error envelope with its longest message is far below it. */
export const KEPT_REFUSAL_BYTES_MAX = 8 * 1024;

export type NextStep =
  | { kind: 'conflict' }
  | { kind: 'replay'; response: StoredHttpResponse }
  /** Another request runs with this key right now: wait for its response. */
  | { kind: 'wait' }
  /** The sync search of `request_id` may still answer: look for its answer; `expired` once it no longer can. */
  | { kind: 'reattach'; expired: boolean }
  /** Nothing to re-attach to: this request becomes the key's owner and runs. */
  | { kind: 'take-over' };

/**
 * What a request with an already-used key does, given the key's record and whether the
 * process that owns it still lives. A dead owner's sync search may still answer (the search runs
 * on without the gateway) until the lease ends; any other request is run again at once (their
 * effects are keyed by the Idempotency-Key: the same async search, the same watch).
 */
export function nextStep(
  record: IdempotencyRecord,
  fingerprint: string,
  now: number,
  reattachesSearch: boolean,
  ownerAlive = true,
): NextStep {
  if (record.fingerprint !== fingerprint) return { kind: 'conflict' };
  if (record.state === 'done' && record.response) return { kind: 'replay', response: record.response };
  const expired = now >= record.lease_until;
  if (record.state === 'running' && !expired && ownerAlive) return { kind: 'wait' };
  if (reattachesSearch) return { kind: 'reattach', expired };
  return { kind: 'take-over' };
}

/**
 * The response a sync search would have given for its answer, for a retry that re-attaches
 * after the first attempt gave up waiting (same mapping as the search use case). The request
 * id is the search id, as in the answer's own metadata.
 */
export function responseFromSearchAnswer(
  answer: SearchResponded.Value,
  serviceVersion: string,
  creditsRemainingFallback: number,
  links: ErrorLinks,
): StoredHttpResponse {
  const common = {
    'content-type': 'application/json; charset=utf-8',
    [HEADERS.requestId]: answer.search_id,
    [HEADERS.serviceVersion]: serviceVersion,
  };
  const result = answer.outcome === 'ok' ? (answer.response ?? answer.estimate) : undefined;
  if (result) {
    return {
      status: 200,
      headers: {
        ...common,
        [HEADERS.creditsCharged]: String(answer.credits_charged),
        [HEADERS.creditsRemaining]: String(answer.credits_remaining ?? creditsRemainingFallback),
      },
      body: JSON.stringify(result),
    };
  }
  const failure = answer.error ?? { code: 'internal_error' as const, message: 'The search failed.' };
  const error = new ApiError(failure.code, failure.message, {
    ...(failure.param ? { param: failure.param } : {}),
    ...(failure.credits_needed !== undefined ? { credits_needed: failure.credits_needed } : {}),
    ...(failure.required_plan ? { required_plan: failure.required_plan } : {}),
  });
  return {
    status: ERROR_CATALOG[failure.code].status,
    headers: common,
    body: JSON.stringify(errorEnvelope(error, answer.search_id, links)),
  };
}
