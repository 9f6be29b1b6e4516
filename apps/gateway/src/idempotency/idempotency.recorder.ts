import type { FastifyInstance } from 'fastify';
import { HEADERS } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { StoredHttpResponse } from './idempotency-record.js';
import type { IdempotencyStore } from './idempotency.store.js';

/** The response headers a replay repeats (rate-limit headers are always the retry's own). */
const KEPT_HEADERS = ['content-type', HEADERS.requestId, HEADERS.serviceVersion, HEADERS.creditsCharged, HEADERS.creditsRemaining];

/**
 * Completes the record of a request that owns an Idempotency-Key as its response goes out,
 * whoever produced it (the handler or the exception filter). 2xx and 4xx are final and
 * replayed; a 5xx is not: the record turns `failed` so a retry re-attaches or runs again.
 */
export function installIdempotencyRecorder(fastify: FastifyInstance, store: IdempotencyStore, logger: Logger): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    const claim = request.idempotency;
    if (!claim) return payload;
    request.idempotency = undefined;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    const status = reply.statusCode;
    try {
      if (status >= 500 || body === null) {
        await store.replaceIfOwner(claim.key, claim.record.request_id, { ...claim.record, state: 'failed' });
      } else {
        const headers: Record<string, string> = {};
        for (const name of KEPT_HEADERS) {
          const value = reply.getHeader(name);
          if (value !== undefined) headers[name] = String(value);
        }
        const response: StoredHttpResponse = { status, headers, body };
        await store.replaceIfOwner(claim.key, claim.record.request_id, { ...claim.record, state: 'done', response });
      }
    } catch (error) {
      // The response still goes out; a retry finds the key `running` until its lease ends.
      logger.warn({ err: error, request_id: request.requestId }, 'idempotency record not completed');
    }
    return payload;
  });
}
