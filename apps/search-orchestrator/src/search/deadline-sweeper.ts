import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { SearchCompletion } from './search-completion.js';
import { SearchStateStore } from './search-state.store.js';

/**
 * The longest the sweeper sleeps: it wakes for each deadline this replica registers and for the
 * earliest one it knows, so this only bounds how late it notices another replica's search whose
 * replica died.
 */
const IDLE_SWEEP_MS = 2_000;
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
    try {
      await this.sweep();
      // untraced: an idle orchestrator looks several times a minute
      const earliest = await untraced(() => this.store.earliestDeadline());
      return earliest === null ? IDLE_SWEEP_MS : clamp(earliest + GRACE_MS - Date.now(), 0, IDLE_SWEEP_MS);
    } catch (error) {
      this.logger.warn({ err: error }, 'deadline sweep failed');
      return IDLE_SWEEP_MS;
    }
  });

  constructor(
    private readonly store: SearchStateStore,
    private readonly completion: SearchCompletion,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('deadline-sweeper', () => this.loop.stop());
    store.onDeadline((deadlineAt) => this.loop.wakeWithin(Math.max(0, deadlineAt + GRACE_MS - Date.now())));
  }

  onApplicationBootstrap(): void {
    this.loop.start(IDLE_SWEEP_MS);
  }

  private async sweep(): Promise<void> {
    for (const searchId of await untraced(() => this.store.overdue(Date.now() - GRACE_MS, 50))) {
      const state = await this.store.load(searchId);
      if (!state) {
        await this.store.forgetDeadline(searchId);
        continue;
      }
      try {
        if (await this.completion.claimAndAnswer(state)) {
          this.logger.warn(
            { search_id: searchId },
            'search answered by the sweeper (its deadline passed, or an earlier answer failed)',
          );
        }
      } catch (error) {
        // released for the next sweep; the searches behind it are not held up
        this.logger.warn({ err: error, search_id: searchId }, 'answering an overdue search failed');
      }
    }
  }
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}
