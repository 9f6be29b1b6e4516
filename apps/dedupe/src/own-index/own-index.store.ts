import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import type { CanonicalJobRow } from '../canonical-jobs/job-view.js';
import { ownIndexQuery, type OwnIndexQuery } from './own-index-query.js';

/**
 * The own index's store side: canonical jobs in PostgreSQL (everything every provider and the
 * own crawler returned), searched by filter for one account's plan.
 */
@Injectable()
export class OwnIndexStore {
  constructor(
    private readonly prisma: PrismaService,
    private readonly jobs: CanonicalJobRepository,
  ) {}

  async search(query: OwnIndexQuery): Promise<CanonicalJobRow[]> {
    const ids = await this.prisma.$queryRaw<{ id: string }[]>(ownIndexQuery(query));
    return this.jobs.load(ids.map((r) => r.id));
  }
}
