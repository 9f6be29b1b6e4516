import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretResponse, WebhookEndpointSecret } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { newId } from '@jobs/observability';
import { SecretBox, WEBHOOK_URL_MAX_LENGTH, webhookUrlTooLong, type EndpointOwner } from '@jobs/webhook-targets';
import { ApiError } from '../http/api-error.js';
import { QueryClient } from '../messaging/query-client.js';

/** Whose endpoint secrets: an account in one key mode (a test key reads the test secrets only). */
export type EndpointsOwner = Omit<EndpointOwner, 'url'>;

/**
 * The signing secret of one account's webhook endpoint: made on first ask, the same until
 * rotated. The webhook-dispatcher owns the secrets (it makes one at a first delivery too) and
 * answers this over Kafka with the secret sealed for its endpoint; it is opened here and answered
 * in clear to the account itself (`POST /v1/webhook_endpoints/secret`, the dashboard) and to the
 * admin API.
 */
@Injectable()
export class WebhookSecretsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly queries: QueryClient,
    private readonly box: SecretBox,
  ) {}

  /** The admin API (operator.md): the live secret of any account's endpoint. */
  async secretFor(accountId: string, url: string): Promise<AdminWebhookSecretResponse> {
    await assertEndpointOwner(this.prisma, accountId, url);
    const { secret } = await this.reveal({ accountId, mode: 'live' }, url, newId('req'));
    return { url, secret };
  }

  /** The owner's secret for `url`, in its key's mode (a test key: the secret of its test deliveries). */
  async reveal(owner: EndpointsOwner, url: string, requestId: string): Promise<WebhookEndpointSecret> {
    const answer = await this.queries.askDispatcher({
      v: 1,
      query_id: requestId,
      account_id: owner.accountId,
      mode: owner.mode,
      query: { kind: 'webhook_secret.current', url },
    });
    return { url, secret: this.box.open(answer.sealed_secret, { ...owner, url }), created_at: answer.created_at };
  }
}

/**
 * The account exists and the URL could be one of its endpoints (400 for an overlong URL, 404 for an unknown account).
 */
export async function assertEndpointOwner(prisma: PrismaService, accountId: string, url: string): Promise<void> {
  if (webhookUrlTooLong(url))
    throw new ApiError('invalid_request', `url: at most ${WEBHOOK_URL_MAX_LENGTH} bytes (UTF-8).`, { param: 'url' });
  if (!(await prisma.account.count({ where: { id: accountId } })))
    throw new ApiError('not_found', `No account ${accountId}.`);
}
