import { Injectable } from '@nestjs/common';
import type { ProviderRequest, ProviderResponse, ProviderSlug } from '@jobs/sim-world';
import { WorldService } from '../world/world.service.js';
import { ProviderBehaviourService } from './provider-behaviour.service.js';

/** One provider call: its latency and failure mode first, then its own answer. */
@Injectable()
export class ProvidersService {
  constructor(
    private readonly world: WorldService,
    private readonly behaviour: ProviderBehaviourService,
  ) {}

  search(slug: ProviderSlug, request: ProviderRequest, signal: AbortSignal): Promise<ProviderResponse | null> {
    return this.run(slug, signal, () => this.world.view(slug).search(request));
  }

  detail(slug: ProviderSlug, id: string, signal: AbortSignal): Promise<ProviderResponse | null> {
    return this.run(slug, signal, () => this.world.view(slug).detail(id));
  }

  /** Null when the client went away: nothing left to answer. */
  private async run(
    slug: ProviderSlug,
    signal: AbortSignal,
    answer: () => ProviderResponse,
  ): Promise<ProviderResponse | null> {
    const outcome = await this.behaviour.apply(slug, signal);
    const view = this.world.view(slug);
    if (outcome === 'answer') return answer();
    if (outcome === 'error') return { status: 503, body: view.errorBody(503, 'service temporarily unavailable') };
    return signal.aborted ? null : { status: 503, body: view.errorBody(503, 'server shutting down') };
  }
}
