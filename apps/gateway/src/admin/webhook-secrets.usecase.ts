import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { ApiError } from '../http/api-error.js';
import { generateWebhookSecret, WEBHOOK_URL_MAX_LENGTH } from './webhook-secret.js';

/** The signing secret of one account's webhook endpoint: made on first ask, the same ever after. */
@Injectable()
export class WebhookSecretsUseCase {
  constructor(private readonly prisma: PrismaService) {}

  async secretFor(accountId: string, url: string): Promise<AdminWebhookSecretResponse> {
    if (url.length > WEBHOOK_URL_MAX_LENGTH) throw new ApiError('invalid_request', `url: at most ${WEBHOOK_URL_MAX_LENGTH} characters.`, { param: 'url' });
    if (!(await this.prisma.account.count({ where: { id: accountId } }))) throw new ApiError('not_found', `No account ${accountId}.`);
    // Insert-if-absent, then read: two first asks at once still end with one secret.
    await this.prisma.webhookEndpointSecret.createMany({ data: [{ accountId, url, secret: generateWebhookSecret() }], skipDuplicates: true });
    const row = await this.prisma.webhookEndpointSecret.findUniqueOrThrow({ where: { accountId_url: { accountId, url } } });
    return { url: row.url, secret: row.secret };
  }
}
