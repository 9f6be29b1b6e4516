import type { FastifyInstance, FastifyReply } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { IdempotencyClaim } from './idempotency.gate.js';
import { keepingOf, type StoredHttpResponse } from './idempotency-record.js';
import type { IdempotencyStore } from './idempotency.store.js';
import type { ReplaySealer } from './replay-sealer.js';

/** The response headers a replay repeats (rate-limit headers are always the retry's own). */
const KEPT_HEADERS = [
  'content-type',
  HEADERS.requestId,
  HEADERS.serviceVersion,
  HEADERS.creditsCharged,
  HEADERS.creditsRemaining,
];

/**
 * Completes the record of a request that owns an Idempotency-Key as its response goes out,
 * whoever produced it (the handler or the exception filter), as `keepingOf` says. An answer
 * that holds a secret is kept sealed.
 */
export function installIdempotencyRecorder(
  fastify: FastifyInstance,
  store: IdempotencyStore,
  sealer: ReplaySealer,
  logger: Logger,
): void {
  // A callback hook, not an async one: most responses own no key and pass straight through.
  fastify.addHook('onSend', (request, reply, payload, done) => {
    const claim = request.idempotency;
    if (!claim) return done(null, payload);
    request.idempotency = undefined;
    void complete(store, sealer, claim, reply, payload).then(
      () => done(null, payload),
      (error: unknown) => {
        // The response still goes out; a retry finds the key `running` until its lease ends.
        logger.warn({ err: error, request_id: request.requestId }, 'idempotency record not completed');
        done(null, payload);
      },
    );
  });
}

async function complete(
  store: IdempotencyStore,
  sealer: ReplaySealer,
  claim: IdempotencyClaim,
  reply: FastifyReply,
  payload: unknown,
): Promise<void> {
  const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
  const status = reply.statusCode;
  const keeping = keepingOf(status, body === null ? 0 : Buffer.byteLength(body));
  if (keeping === 'failed' || body === null) {
    await store.replaceIfOwner(claim.key, claim.record.request_id, { ...claim.record, state: 'failed' });
    return;
  }
  if (keeping === 'forgotten') {
    await store.releaseIfOwner(claim.key, claim.record.request_id);
    return;
  }
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const value = reply.getHeader(name);
    if (value !== undefined) headers[name] = String(value);
  }
  const plain: StoredHttpResponse = { status, headers, body };
  const response = claim.sealResponse ? sealer.seal(claim.key, plain) : plain;
  await store.replaceIfOwner(claim.key, claim.record.request_id, { ...claim.record, state: 'done', response });
}
