import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretRotateResponse, WebhookEndpointRotated } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { newId } from '@jobs/observability';
import { SecretBox } from '@jobs/webhook-targets';
import { claimedId } from '../idempotency/claimed-id.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.gate.js';
import { QueryClient } from '../messaging/query-client.js';
import { assertEndpointOwner, type EndpointsOwner } from './webhook-secrets.usecase.js';

/**
 * A rotation of one account's endpoint secret: who asks (the admin API names the account and
 * rotates the live secret; a customer's key gives the account and its mode).
 */
export interface RotateWebhookSecretCommand extends EndpointsOwner {
  url: string;
  /** How long the replaced secret keeps signing deliveries beside the new one (0: not at all). */
  previousExpiresInSeconds: number;
}

/**
 * Rotates an endpoint's signing secret with an overlap window: from now on deliveries are signed
 * with the new secret first and, until the window ends, with the replaced one too (two `v1=` in
 * `Service-Signature`), so the receiver switches when it is ready. The webhook-dispatcher, which
 * owns the secrets, rotates once per request and answers the new secret sealed; it is answered
 * here once, and afterwards read like any secret. Under an Idempotency-Key the rotation is named
 * by the key and body: a retry after a 500 (the dispatcher rotated, its answer came too late)
 * answers that rotation's secret instead of rotating again, which would leave the receiver's
 * secret neither current nor previous.
 */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queries: QueryClient,
    private readonly box: SecretBox,
  ) {}

  async execute(
    command: RotateWebhookSecretCommand,
    requestId: string,
    idempotency?: IdempotencyClaim,
  ): Promise<WebhookEndpointRotated> {
    const { accountId, mode, url } = command;
    const rotated = await this.queries.askDispatcher({
      v: 1,
      query_id: requestId,
      account_id: accountId,
      mode,
      query: {
        kind: 'webhook_secret.rotate',
        url,
        previous_expires_in_seconds: command.previousExpiresInSeconds,
        ...(idempotency ? { rotation_id: claimedId('rot', 'rotation', idempotency) } : {}),
      },
    });
    return {
      url,
      secret: this.box.open(rotated.sealed_secret, { accountId, mode, url }),
      created_at: rotated.created_at,
      previous_expires_at: rotated.previous_expires_at,
    };
  }

  /** The admin API (operator.md): any account's live secret, after checking the account exists. */
  async forAdmin(
    accountId: string,
    url: string,
    previousExpiresInSeconds: number,
  ): Promise<AdminWebhookSecretRotateResponse> {
    await assertEndpointOwner(this.prisma, accountId, url);
    const command = { accountId, mode: 'live' as const, url, previousExpiresInSeconds };
    const { secret, previous_expires_at } = await this.execute(command, newId('req'));
    return { url, secret, previous_expires_at };
  }
}
