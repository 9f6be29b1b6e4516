import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import type { Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';
import { SecretBox, sealLegacySecrets } from '@jobs/webhook-targets';

/**
 * Seals, once at start, every webhook secret still stored in clear (rows written before secrets
 * were sealed). In the background: a delivery meanwhile reads a plain secret as it is, and each
 * row is sealed with a compare-and-set, so replicas starting together do no harm.
 */
@Injectable()
export class LegacySecretsSealer implements OnApplicationBootstrap {
  constructor(
    private readonly prisma: PrismaService,
    private readonly box: SecretBox,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    void sealLegacySecrets(this.prisma, this.box).then(
      (sealed) => {
        if (sealed > 0) this.logger.info({ sealed }, 'plain webhook secrets sealed');
      },
      (error: unknown) =>
        this.logger.warn(
          { err: error },
          'plain webhook secrets could not be sealed now; each is sealed when next read',
        ),
    );
  }
}
