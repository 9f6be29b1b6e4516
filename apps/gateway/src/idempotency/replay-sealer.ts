import type { FastifyRequest } from 'fastify';
import type { SecretBox } from '@jobs/webhook-targets';
import type { StoredHttpResponse } from './idempotency-record.js';

/**
 * Stored answers that hold a secret (a webhook signing secret) are kept in Redis sealed: the
 * same AES-256-GCM box as the secrets at rest (WEBHOOK_SECRETS_KEY), bound to the idempotency
 * record's own key, so a read of Redis yields no secret and a sealed answer copied onto another
 * record does not open. A replay opens it and answers the same bytes.
 */
export class ReplaySealer {
  constructor(private readonly box: SecretBox) {}

  seal(recordKey: string, response: StoredHttpResponse): StoredHttpResponse {
    return { ...response, body: this.box.seal(response.body, ownerOf(recordKey)), sealed: true };
  }

  open(recordKey: string, response: StoredHttpResponse): StoredHttpResponse {
    if (!response.sealed) return response;
    const { sealed: _sealed, ...rest } = response;
    return { ...rest, body: this.box.open(response.body, ownerOf(recordKey)) };
  }
}

const ownerOf = (recordKey: string) => ({ accountId: 'idempotency-replay', url: recordKey });

/** Marks the request's answer, should it be kept for an Idempotency-Key, as one to keep sealed. */
export function keepAnswerSealed(request: FastifyRequest): void {
  if (request.idempotency) request.idempotency.sealResponse = true;
}
