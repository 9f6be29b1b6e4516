import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { WEBHOOK_URL_MAX_LENGTH, webhookSecretFor } from '@jobs/webhook-targets';
import { ApiError } from '../http/api-error.js';

/**
 * The signing secret of one account's webhook endpoint: made on first ask, the same ever after
 * (the create-or-get is shared with the webhook-dispatcher, which makes it on a first delivery).
 */
@Injectable()
export class WebhookSecretsUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async secretFor(accountId: string, url: string): Promise<AdminWebhookSecretResponse> {
    if (url.length > WEBHOOK_URL_MAX_LENGTH) throw new ApiError('invalid_request', `url: at most ${WEBHOOK_URL_MAX_LENGTH} characters.`, { param: 'url' });
    if (!(await this.prisma.account.count({ where: { id: accountId } }))) throw new ApiError('not_found', `No account ${accountId}.`);
    return { url, secret: await webhookSecretFor(this.prisma, accountId, url) };
  }
}
