import { Injectable } from '@nestjs/common';
import type { AdminWebhookSecretRotateResponse } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { rotateWebhookSecret, SecretBox } from '@jobs/webhook-targets';
import { assertEndpointOwner } from './webhook-secrets.usecase.js';

/** A rotation of one account's endpoint secret: who asks (the admin API names the account; a customer route takes it from the key). */
export interface RotateWebhookSecretCommand {
  accountId: string;
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

  async execute(command: RotateWebhookSecretCommand): Promise<AdminWebhookSecretRotateResponse> {
    await assertEndpointOwner(this.prisma, command.accountId, command.url);
    const rotated = await rotateWebhookSecret(this.prisma, this.box, {
      accountId: command.accountId,
      url: command.url,
      previousExpiresInSeconds: command.previousExpiresInSeconds,
    });
    return { url: command.url, secret: rotated.secret, previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null };
  }
}
