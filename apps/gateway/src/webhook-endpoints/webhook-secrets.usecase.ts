import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { SecretBox, WEBHOOK_URL_MAX_LENGTH, webhookSecretFor } from '@jobs/webhook-targets';
import { ApiError } from '../http/api-error.js';

/**
 * The signing secret of one account's webhook endpoint: made on first ask, the same until
 * rotated (the create-or-get is shared with the webhook-dispatcher, which makes it on a first
 * delivery). Stored sealed; answered in clear to the admin API only.
 */
@Injectable()
export class WebhookSecretsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  async secretFor(accountId: string, url: string): Promise<AdminWebhookSecretResponse> {
    await assertEndpointOwner(this.prisma, accountId, url);
    return { url, secret: await webhookSecretFor(this.prisma, this.box, accountId, url) };
  }
}

/** The account exists and the URL could be one of its endpoints (400 for an overlong URL, 404 for an unknown account). */
export async function assertEndpointOwner(prisma: PrismaService, accountId: string, url: string): Promise<void> {
  if (url.length > WEBHOOK_URL_MAX_LENGTH) throw new ApiError('invalid_request', `url: at most ${WEBHOOK_URL_MAX_LENGTH} characters.`, { param: 'url' });
  if (!(await prisma.account.count({ where: { id: accountId } }))) throw new ApiError('not_found', `No account ${accountId}.`);
}
