import { Injectable } from '@nestjs/common';
import type { QueryResponded } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { QueryFailure } from '@jobs/nest-kafka';
import { currentWebhookSecret, rotateWebhookSecret, SecretBox, type EndpointOwner } from '@jobs/webhook-targets';

type Answer<K extends string> = Extract<QueryResponded.QueryResult, { kind: K }>;

/**
 * An endpoint's signing secret, asked by the gateway (the public API, the dashboard, the admin
 * API): its current secret, made on first ask exactly as a first delivery makes it, or a rotation.
 * The answer carries the secret sealed for its endpoint, so a secret never crosses Kafka in clear;
 * the gateway opens it with the same key.
 */
@Injectable()
export class EndpointSecretsUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  async current(owner: EndpointOwner): Promise<Answer<'webhook_secret.current'>> {
    const { secret, createdAt } = await currentWebhookSecret(this.prisma, this.box, owner);
    return {
      kind: 'webhook_secret.current',
      sealed_secret: this.box.seal(secret, owner),
      created_at: createdAt.toISOString(),
    };
  }

  /**
   * Rotates once per rotation id (the query's, or a keyed request's `rotation_id`): the same
   * rotation asked again, while it is the latest, answers the secret it made.
   */
  async rotate(
    owner: EndpointOwner,
    previousExpiresInSeconds: number,
    rotationId: string,
  ): Promise<Answer<'webhook_secret.rotate'>> {
    const rotated = await rotateWebhookSecret(this.prisma, this.box, {
      ...owner,
      previousExpiresInSeconds,
      rotationId,
    }).catch((error: unknown) => {
      if (error instanceof RangeError)
        throw new QueryFailure('invalid_request', error.message, { param: 'previous_expires_in_seconds' });
      throw error;
    });
    return {
      kind: 'webhook_secret.rotate',
      sealed_secret: this.box.seal(rotated.secret, owner),
      created_at: rotated.createdAt.toISOString(),
      previous_expires_at: rotated.previousExpiresAt?.toISOString() ?? null,
    };
  }
}
