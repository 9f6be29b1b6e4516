import { Injectable } from '@nestjs/common';
import type { WebhookEndpointListResponse, WebhookEndpointRotated, WebhookEndpointSecret } from '@jobs/contracts';
import type { Principal } from '../auth/api-key.js';
import type { IdempotencyClaim } from '../idempotency/idempotency.gate.js';
import { ListWebhookEndpointsUseCase } from './list-webhook-endpoints.usecase.js';
import { RotateWebhookSecretUseCase } from './rotate-webhook-secret.usecase.js';
import { WebhookSecretsUseCase } from './webhook-secrets.usecase.js';
import { WebhookTargetCheck } from './webhook-target.check.js';

/**
 * What a customer does with its webhook endpoints, from the public API and the dashboard alike:
 * list them, read a URL's signing secret, rotate it. A URL must be one webhooks may be sent to
 * (the `webhook_url` rule of watches and async searches), so no secret is made for a URL no
 * delivery could reach.
 */
@Injectable()
export class WebhookEndpointsUseCase {
  constructor(
    private readonly targets: WebhookTargetCheck,
    private readonly secrets: WebhookSecretsUseCase,
    private readonly rotation: RotateWebhookSecretUseCase,
    private readonly listing: ListWebhookEndpointsUseCase,
  ) {}

  list(principal: Principal, cursor: string | undefined, requestId: string): Promise<WebhookEndpointListResponse> {
    return this.listing.page(principal, cursor, requestId);
  }

  async reveal(principal: Principal, url: string, requestId: string): Promise<WebhookEndpointSecret> {
    await this.targets.assertAllowed(url, 'url');
    return this.secrets.reveal(principal, url, requestId);
  }

  async rotate(
    principal: Principal,
    url: string,
    previousExpiresInSeconds: number,
    requestId: string,
    idempotency?: IdempotencyClaim,
  ): Promise<WebhookEndpointRotated> {
    await this.targets.assertAllowed(url, 'url');
    const command = { accountId: principal.accountId, mode: principal.mode, url, previousExpiresInSeconds };
    return this.rotation.execute(command, requestId, idempotency);
  }
}
