import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretRotateResponse, ApiKeyMode, WebhookEndpointRotated } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { rotateWebhookSecret, SecretBox } from '@jobs/webhook-targets';
import { assertEndpointOwner } from './webhook-secrets.usecase.js';

/**
 * A rotation of one account's endpoint secret: who asks (the admin API names the account and
 * rotates the live secret; a customer's key gives the account and its mode).
 */
export interface RotateWebhookSecretCommand {
  accountId: string;
  mode: ApiKeyMode;
  url: string;
  /** How long the replaced secret keeps signing deliveries beside the new one (0: not at all). */
  previousExpiresInSeconds: number;
}

/**
 * Rotates an endpoint's signing secret with an overlap window: from now on deliveries are signed
 * with the new secret first and, until the window ends, with the replaced one too (two `v1=` in
 * `Service-Signature`), so the receiver switches when it is ready. Answers the new secret once;
 * afterwards it is read like any secret.
 */
@Injectable()
export class RotateWebhookSecretUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  async execute(command: RotateWebhookSecretCommand): Promise<WebhookEndpointRotated> {
    const rotated = await rotateWebhookSecret(this.prisma, this.box, {
      accountId: command.accountId,
      mode: command.mode,
      url: command.url,
      previousExpiresInSeconds: command.previousExpiresInSeconds,
    });
    return {
      url: command.url,
      secret: rotated.secret,
      created_at: rotated.createdAt.toISOString(),
      previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null,
    };
  }

  /** The admin API (operator.md): any account's live secret, after checking the account exists. */
  async forAdmin(
    accountId: string,
    url: string,
    previousExpiresInSeconds: number,
  ): Promise<AdminWebhookSecretRotateResponse> {
    await assertEndpointOwner(this.prisma, accountId, url);
    const { secret, previous_expires_at } = await this.execute({
      accountId,
      mode: 'live',
      url,
      previousExpiresInSeconds,
    });
    return { url, secret, previous_expires_at };
  }
}
