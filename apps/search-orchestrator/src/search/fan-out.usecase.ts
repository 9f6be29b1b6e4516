import { Injectable } from '@nestjs/common';
import { Topics } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { STATE_TTL_SECONDS } from './complete-search.usecase.js';
import { SearchStateStore, type SearchState } from './search-state.store.js';
import { annotateStage } from '@jobs/observability';

/** Asks the provider-fetcher for every provider of a search's current wave. */
@Injectable()
export class FanOutUseCase {
  constructor(
    private readonly store: SearchStateStore,
    private readonly publisher: KafkaPublisher,
  ) {}

  async firstWave(state: SearchState): Promise<void> {
    await this.store.open(state.request.search_id, state, STATE_TTL_SECONDS);
    await this.askWave(state);
  }

  async nextWave(state: SearchState): Promise<void> {
    const next: SearchState = { ...state, wave: state.wave + 1 };
    await this.store.advance(state.request.search_id, next, STATE_TTL_SECONDS);
    await this.askWave(next);
  }

  private async askWave(state: SearchState): Promise<void> {
    const { request } = state;
    annotateStage({ 'search.id': request.search_id, 'search.strategy': state.plan.strategy, 'search.wave': state.wave, 'search.wave_providers': state.plan.waves[state.wave]!.join(','), 'search.limit': request.request.limit });
    await this.publisher.publishMany(
      Topics.ProviderFetchRequested,
      state.plan.waves[state.wave]!.map((provider) => ({
        value: {
          v: 1 as const,
          search_id: request.search_id,
          provider,
          filters: request.request.filters,
          want: request.request.limit,
          deadline_at: request.deadline_at,
          // the own index also answers from the store, with jobs a provider of this plan has seen
          ...(provider === 'own_index' ? { index_scope: { providers_routable: request.providers_enabled } } : {}),
        },
      })),
    );
  }
}
