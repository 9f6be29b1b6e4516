import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretResponse, WebhookEndpointSecret } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { currentWebhookSecret, SecretBox, WEBHOOK_URL_MAX_LENGTH, webhookSecretFor } from '@jobs/webhook-targets';
import type { Principal } from '../auth/api-key.js';
import { ApiError } from '../http/api-error.js';

/**
 * The signing secret of one account's webhook endpoint: made on first ask, the same until
 * rotated (the create-or-get is shared with the webhook-dispatcher, which makes it on a first
 * delivery). Stored sealed; answered in clear to the account itself (`POST
 * /v1/webhook_endpoints/secret`, the dashboard) and to the admin API.
 */
@Injectable()
export class WebhookSecretsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  /** The admin API (operator.md): the live secret of any account's endpoint. */
  async secretFor(accountId: string, url: string): Promise<AdminWebhookSecretResponse> {
    await assertEndpointOwner(this.prisma, accountId, url);
    return { url, secret: await webhookSecretFor(this.prisma, this.box, { accountId, mode: 'live', url }) };
  }

  /** The caller's own secret for `url`, in its key's mode (a test key: the secret of its test deliveries). */
  async reveal(principal: Principal, url: string): Promise<WebhookEndpointSecret> {
    const current = await currentWebhookSecret(this.prisma, this.box, {
      accountId: principal.accountId,
      mode: principal.mode,
      url,
    });
    return { url, secret: current.secret, created_at: current.createdAt.toISOString() };
  }
}

/**
 * The account exists and the URL could be one of its endpoints (400 for an overlong URL, 404 for an unknown account).
 */
export async function assertEndpointOwner(prisma: PrismaService, accountId: string, url: string): Promise<void> {
  if (url.length > WEBHOOK_URL_MAX_LENGTH)
    throw new ApiError('invalid_request', `url: at most ${WEBHOOK_URL_MAX_LENGTH} characters.`, { param: 'url' });
  if (!(await prisma.account.count({ where: { id: accountId } })))
    throw new ApiError('not_found', `No account ${accountId}.`);
}
