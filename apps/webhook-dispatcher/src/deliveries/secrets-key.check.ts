import { Injectable, type OnModuleInit } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { checkSecretsKey, SecretBox } from '@jobs/webhook-targets';

/**
 * Stops the start of a replica whose WEBHOOK_SECRETS_KEY does not open the stored secrets, before
 * its worker claims a delivery it could not sign (`checkSecretsKey`).
 */
@Injectable()
export class SecretsKeyCheck implements OnModuleInit {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
  ) {}

  onModuleInit(): Promise<void> {
    return checkSecretsKey(this.prisma, this.box);
  }
}
