import { Inject, Injectable } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HEADERS, IdempotencyKeySchema, IDEMPOTENCY_KEY_MAX_LENGTH, SERVICE_VERSION } from '@jobs/contracts';
import { AccountBalances } from '../account/account-balances.js';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config/gateway.config.js';
import { ApiError } from '../http/api-error.js';
import { errorLinks } from '../http/api-exception.filter.js';
import { StoredResponse } from '../http/stored-response.js';
import { bodyFingerprint } from './canonical-json.js';
import {
  keepingOf,
  nextStep,
  responseFromSearchAnswer,
  takingOver,
  type IdempotencyRecord,
  type StoredHttpResponse,
} from './idempotency-record.js';
import { ANSWER_EXPIRED, ANSWER_JOINING, IdempotencyStore } from './idempotency.store.js';
import { GatewayLiveness } from './gateway-liveness.js';
import { ReplaySealer } from './replay-sealer.js';

/** The key a request owns; the response recorder completes it when the response goes out. */
export interface IdempotencyClaim {
  key: string;
  record: IdempotencyRecord;
  /** The answer holds a secret: it is stored sealed (`ReplaySealer`), set by the route (`keepAnswerSealed`). */
  sealResponse?: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency?: IdempotencyClaim;
  }
}

export const REPLAYED_HEADER = 'Idempotent-Replayed';
const POLL_MS = 100;

/**
 * `Idempotency-Key` on authenticated POSTs (the last gate of DoorInterceptor, after the rate
 * limit and admission). The first request with a key owns it and runs; a retry with the same
 * body gets the stored response; a different body gets 409; a concurrent duplicate waits
 * (bounded) for the owner's response and replays it; a retry after a 5xx re-attaches to the
 * sync search it started.
 */
@Injectable()
export class IdempotencyGate {
  constructor(
    private readonly store: IdempotencyStore,
    private readonly liveness: GatewayLiveness,
    private readonly balances: AccountBalances,
    private readonly sealer: ReplaySealer,
    @Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig,
  ) {}

  /**
   * Returns once the request owns its key (or has none to own); otherwise throws the replay or
   * the error to answer. `reattaches`: the route is the sync search (@ReattachesSearch).
   */
  async pass(request: FastifyRequest, reply: FastifyReply, reattaches: boolean): Promise<void> {
    const header = request.headers['idempotency-key'];
    if (request.method !== 'POST' || !request.principal || header === undefined) return;
    const parsed = IdempotencyKeySchema.safeParse(header);
    if (!parsed.success) {
      throw new ApiError(
        'invalid_request',
        `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX_LENGTH} visible ASCII characters (for example a UUID).`,
        { param: HEADERS.idempotencyKey },
      );
    }
    const claim: IdempotencyClaim = {
      key: this.store.keyFor(
        request.principal.accountId,
        request.principal.mode,
        request.method,
        scopePath(request),
        parsed.data,
      ),
      record: {
        fingerprint: bodyFingerprint(request.body),
        state: 'running',
        request_id: request.requestId,
        lease_until: Date.now() + this.config.IDEMPOTENCY_LEASE_MS,
        owner: this.liveness.incarnation,
        service_version: String(reply.getHeader(HEADERS.serviceVersion) ?? SERVICE_VERSION),
        claimed_at: Date.now(),
      },
    };
    try {
      await this.claimOrReplay(claim, reattaches, request.principal.accountId);
      if (reattaches) await this.store.watchSearch(claim.record.request_id);
    } catch (error) {
      if (error instanceof ApiError || error instanceof StoredResponse) throw error;
      // Redis is away: without its record a keyed request could run twice (a retry would not
      // find it), so it is refused before it runs; the client retries with the same key.
      throw new ApiError(
        'internal_error',
        'This Idempotency-Key cannot be recorded right now, so the ' +
          'request was not run. Retry shortly with the same ' +
          'Idempotency-Key.',
        {},
        { 'Retry-After': '1' },
      );
    }
    request.idempotency = claim;
  }

  /** This request owns the key from now on, under the key's first claim (what it makes keeps its id). */
  private async takeOver(claim: IdempotencyClaim, existing: IdempotencyRecord): Promise<boolean> {
    const record = takingOver(claim.record, existing);
    if (!(await this.store.replaceIfOwner(claim.key, existing.request_id, record))) return false;
    claim.record = record;
    return true;
  }

  /** Returns once this request owns the key; otherwise throws the replay or the error to answer. */
  private async claimOrReplay(claim: IdempotencyClaim, reattaches: boolean, accountId: string): Promise<void> {
    const giveUpAt = Date.now() + this.config.IDEMPOTENCY_WAIT_MS;
    for (;;) {
      const existing = await this.store.claim(claim.key, claim.record);
      if (!existing) return;
      const now = Date.now();
      let step = nextStep(existing, claim.record.fingerprint, now, reattaches);
      // Only a request told to wait asks whether the owner's process lives: a dead owner's key need not wait out its
      // lease.
      if (step.kind === 'wait' && existing.owner && !(await this.liveness.isAlive(existing.owner))) {
        step = nextStep(existing, claim.record.fingerprint, now, reattaches, false);
      }
      switch (step.kind) {
        case 'conflict':
          throw new ApiError(
            'idempotency_conflict',
            'This Idempotency-Key was already used with a different ' +
              'request body. Use a new key for a different request.',
          );
        case 'replay':
          throw replay(this.sealer.open(claim.key, step.response));
        case 'reattach': {
          const answer = await this.store.answerOf(existing.request_id);
          // Billing has charged the page, which is on its way: wait for it, never run afresh. Not even
          // past the lease: a search run afresh has an id of its own, and billing would charge it
          // again up to its max_credits (the jobs already paid for come free, but not the others).
          if (answer === ANSWER_JOINING) break;
          // billing charged nothing and never will (it took the page too late): run afresh now
          if (answer === ANSWER_EXPIRED) {
            if (await this.takeOver(claim, existing)) return;
            break;
          }
          if (answer) {
            const response = responseFromSearchAnswer(
              answer,
              existing.service_version,
              await this.balances.creditsRemaining(accountId),
              errorLinks(this.config),
            );
            // kept as the search's own response would have been: a failed search runs afresh, a
            // 402 is answered once and forgotten (the retry after a top-up runs)
            const keeping = keepingOf(response.status);
            if (keeping === 'failed') {
              if (await this.takeOver(claim, existing)) return;
              break;
            }
            if (keeping === 'forgotten') await this.store.releaseIfOwner(claim.key, existing.request_id);
            else
              await this.store.replaceIfOwner(claim.key, existing.request_id, { ...existing, state: 'done', response });
            throw replay(response);
          }
          // No answer and none can come any more (the search never ran, or was lost): run afresh.
          if (step.expired && (await this.takeOver(claim, existing))) return;
          break;
        }
        case 'take-over':
          if (await this.takeOver(claim, existing)) return;
          break;
        case 'wait':
          break;
      }
      if (Date.now() >= giveUpAt) {
        if (existing.state === 'running') {
          throw new ApiError(
            'idempotency_conflict',
            'A request with this Idempotency-Key is still being ' +
              'processed. Retry shortly with the same key to get its ' +
              'response.',
          );
        }
        throw new ApiError(
          'internal_error',
          'The search started under this Idempotency-Key is still running. Retry with the same Idempotency-Key.',
        );
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }
}

function replay(response: StoredHttpResponse): StoredResponse {
  return new StoredResponse(response.status, { ...response.headers, [REPLAYED_HEADER]: 'true' }, response.body);
}

/**
 * The path a key is scoped by: the route the router matched, with its parameters as it decoded them,
 * so `/v1/%77atches` and `/v1/watches` are one scope (the router runs them as one endpoint). A
 * path written as usual scopes as it is sent.
 */
export function scopePath(request: Pick<FastifyRequest, 'url' | 'routeOptions' | 'params'>): string {
  const route = request.routeOptions.url;
  if (!route) return request.url.split('?')[0] ?? request.url;
  const params = (request.params ?? {}) as Record<string, unknown>;
  return route.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}
