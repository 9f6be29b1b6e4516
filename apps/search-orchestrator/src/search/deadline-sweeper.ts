import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { CompleteSearchUseCase } from './complete-search.usecase.js';
import { SearchStateStore, STATE_TTL_SECONDS } from './search-state.store.js';

/** How often overdue searches are looked for. */
const SWEEP_EVERY_MS = 200;
/**
 * Providers past the deadline are reported by the fetcher itself (provider_timeout) a moment
 * after it; the sweeper waits that long before answering without them.
 */
const GRACE_MS = 750;

/**
 * Answers searches whose providers did not all report by the deadline (a provider past
 * `timeout_ms`, a fetcher that died): the page is built from what arrived and is `partial`.
 */
@Injectable()
export class DeadlineSweeper implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await this.sweep().catch((error: unknown) => this.logger.warn({ err: error }, 'deadline sweep failed'));
    return SWEEP_EVERY_MS;
  });

  constructor(
    private readonly store: SearchStateStore,
    private readonly completeSearch: CompleteSearchUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('deadline-sweeper', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(SWEEP_EVERY_MS);
  }

  private async sweep(): Promise<void> {
    for (const searchId of await this.store.overdue(Date.now() - GRACE_MS, 50)) {
      const state = await this.store.load(searchId);
      if (!state) {
        await this.store.forgetDeadline(searchId);
        continue;
      }
      if (!(await this.store.claimCompletion(searchId, STATE_TTL_SECONDS))) continue;
      this.logger.warn({ search_id: searchId }, 'search answered at its deadline without every provider');
      await this.completeSearch.execute(state);
    }
  }
}
