import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import type { CanonicalJobRow } from '../canonical-jobs/job-view.js';
import {
  ownIndexCountQuery,
  ownIndexPageQuery,
  storeCountOfRow,
  type OwnIndexQuery,
  type StorePageKey,
} from './own-index-query.js';

/** A dry run's count of the store (`ownIndexCountQuery`). */
export type StoreCount = ReturnType<typeof storeCountOfRow>;

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

  /**
   * One page of the store for a search (sync or async), after `after` in the stable store order,
   * and the key the next page starts after (null when this page was the last).
   */
  async page(
    query: Omit<OwnIndexQuery, 'want'> & { want: number; after: StorePageKey | null },
  ): Promise<{ rows: CanonicalJobRow[]; next: StorePageKey | null }> {
    const keys = await this.prisma.direct.$queryRaw<{ id: string; first_seen_at: Date }[]>(ownIndexPageQuery(query));
    const rows = await this.jobs.load(keys.map((k) => k.id));
    const last = keys[keys.length - 1];
    return { rows, next: keys.length === query.want && last ? { firstSeenAt: last.first_seen_at, id: last.id } : null };
  }

  /** The store's matching jobs for a dry run's estimate, counted in one statement. */
  async count(query: Omit<OwnIndexQuery, 'want'> & { accountId: string; minSources: number }): Promise<StoreCount> {
    const [row] = await this.prisma.direct.$queryRaw<Record<string, number>[]>(ownIndexCountQuery(query));
    return storeCountOfRow(row);
  }
}
