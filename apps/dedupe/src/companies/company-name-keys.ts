import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { companyNameKey } from '@jobs/matching';
import { untraced, type Logger } from '@jobs/observability';
import { LOGGER } from '@jobs/service-kit';

const BATCH = 1_000;

/**
 * Fills the name key (`companyNameKey`) of companies stored before keys were, so that records
 * without a domain find them. The key is computed in TypeScript, so the migration that added the
 * column cannot. Once done, each start costs one index probe for a null key; replicas may race,
 * and both write the same keys.
 */
@Injectable()
export class CompanyNameKeys implements OnApplicationBootstrap {
  constructor(
    private readonly prisma: PrismaService,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  onApplicationBootstrap(): void {
    void untraced(() => this.fill()).catch((err: unknown) =>
      this.logger.error({ err }, 'filling the companies name keys failed; records without a domain stay apart'),
    );
  }

  /** Fills every missing key, a batch at a time; returns how many companies it keyed. */
  async fill(): Promise<number> {
    let keyed = 0;
    for (;;) {
      const rows = await this.prisma.company.findMany({
        where: { nameKey: null },
        select: { id: true, name: true },
        orderBy: { id: 'asc' },
        take: BATCH,
      });
      if (rows.length === 0) break;
      await this.prisma.$executeRaw`
        UPDATE companies AS c SET name_key = v.key
        FROM unnest(${rows.map((r) => r.id)}::text[], ${rows.map((r) => companyNameKey(r.name))}::text[]) AS v(id, key)
        WHERE c.id = v.id AND c.name_key IS NULL`;
      keyed += rows.length;
    }
    if (keyed > 0) this.logger.info({ companies: keyed }, 'filled the name keys of companies stored before them');
    return keyed;
  }
}
