import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';

import { SearchStateStore, type SearchState, STATE_TTL_SECONDS } from './search-state.store.js';
import { annotateStage } from '@jobs/observability';
import type { ChunkPosition } from '@jobs/contracts';

const storeAfter = (position: ChunkPosition | null | undefined) => (position?.kind === 'store' ? position.after : null);
const pageFrom = (position: ChunkPosition | null | undefined) => (position?.kind === 'pages' ? position.page : null);

/**
 * Asks every provider of a search's current wave: the partners in one request to the provider-fetcher, the own index
 * from the store.
 */
@Injectable()
export class FanOutUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  /**
   * `onlyIfNew`: a search's first page, whose request a redelivery may bring again: a search
   * already opened is not reset (its first handling may have answered it, and its cursor points
   * into the result set); one not yet answered has its first wave asked again, in case the first
   * handling stopped before asking (answers that come twice are taken once). Whether it opened.
   */
  async firstWave(state: SearchState, { onlyIfNew = false }: { onlyIfNew?: boolean } = {}): Promise<boolean> {
    const opened = await this.store.open(state.request.search_id, state, STATE_TTL_SECONDS, onlyIfNew);
    if (opened || !(await this.store.isCompleted(state.request.search_id))) await this.askWave(state);
    return opened;
  }

  async nextWave(state: SearchState): Promise<void> {
    const next: SearchState = { ...state, wave: state.wave + 1 };
    await this.store.advance(state.request.search_id, next, STATE_TTL_SECONDS);
    await this.askWave(next);
  }

  private async askWave(state: SearchState): Promise<void> {
    const { request } = state;
    const providers = state.plan.waves[state.wave]!;
    annotateStage({
      'search.id': request.search_id,
      'search.strategy': state.plan.strategy,
      'search.wave': state.wave,
      'search.wave_providers': providers.join(','),
      'search.limit': request.request.limit,
    });
    const dryRun = request.request.dry_run === true;
    // A dry run needs no jobs, only counts: the store counts every match (set-based) and each
    // partner reports its total with a first page of one record, which is not merged (count_only):
    // an estimate leaves the store as it was.
    const want = dryRun ? 1 : (state.extension?.want ?? request.request.limit);
    // The own index answers from the store (kept current by the refresh pipeline's crawler
    // sweeps): dedupe queries it at once, nothing waits for the crawler or the fetcher. Both
    // topics are published side by side, so the producer sends them in one request.
    const ownIndex = providers.includes('own_index')
      ? this.publisher.publish(Topics.OwnIndexQueryRequested, {
          v: 1,
          search_id: request.search_id,
          filters: request.request.filters,
          want,
          scope: { providers_routable: request.providers_enabled },
          after: storeAfter(state.from?.own_index),
          // consensus keeps only corroborated jobs: a page of the newest single-source ones would come back empty
          ...(request.request.waterfall.strategy === 'consensus' && !dryRun
            ? { min_sources: request.request.waterfall.min_sources }
            : {}),
          ...(dryRun
            ? {
                count: {
                  account_id: request.account_id,
                  min_sources:
                    request.request.waterfall.strategy === 'consensus' ? request.request.waterfall.min_sources : 1,
                },
              }
            : {}),
        })
      : undefined;
    // the wave's partners in one request: one fetcher calls them side by side and answers once
    const asks = providers
      .filter((provider) => provider !== 'own_index')
      .map((provider) => ({ provider, from: pageFrom(state.from?.[provider]) }));
    const partners =
      asks.length > 0
        ? this.publisher.publish(Topics.ProviderFetchRequested, {
            v: 1,
            search_id: request.search_id,
            providers: asks,
            filters: request.request.filters,
            want,
            deadline_at: request.deadline_at,
            ...(dryRun ? { count_only: true } : {}),
          })
        : undefined;
    await Promise.all([ownIndex, partners]);
  }
}
