import { FRESHNESS_ORDER, type JobSearchRequest, type ProviderSlug, type WaterfallStrategy } from '@jobs/contracts';

/** Which providers one search asks, in which order, in which waves. */
export interface WaterfallPlan {
  strategy: WaterfallStrategy;
  /** Every provider the search may ask, in priority order (the first to bring a job is credited). */
  providers: ProviderSlug[];
  /** Providers asked together; the next wave starts only if the previous ones found too little. */
  waves: ProviderSlug[][];
}

export class ProviderNotOnPlanError extends Error {
  constructor(readonly providers: ProviderSlug[]) {
    super(`not on the plan: ${providers.join(', ')}`);
    this.name = 'ProviderNotOnPlanError';
  }
}

/**
 * Plans a search: the providers asked for (or every provider of the plan), checked against
 * the plan, ordered for the strategy (`freshest_first`: lowest listing lag first, from the provider
 * registry). Free and Starter plans and `own_only` search the own index only.
 */
export function planWaterfall(
  request: Pick<JobSearchRequest, 'waterfall'>,
  providersEnabled: readonly ProviderSlug[],
): WaterfallPlan {
  const { strategy } = request.waterfall;
  const asked = request.waterfall.providers;
  if (asked) {
    const notAllowed = asked.filter((p) => !providersEnabled.includes(p));
    if (notAllowed.length > 0) throw new ProviderNotOnPlanError(notAllowed);
  }
  if (strategy === 'own_only') return { strategy, providers: ['own_index'], waves: [['own_index']] };
  const chosen = asked ? [...new Set(asked)] : [...providersEnabled];
  if (strategy === 'freshest_first') chosen.sort((a, b) => FRESHNESS_ORDER.indexOf(a) - FRESHNESS_ORDER.indexOf(b));
  else chosen.sort((a, b) => (a === 'own_index' ? -1 : b === 'own_index' ? 1 : 0));
  return { strategy, providers: chosen, waves: wavesFor(strategy, chosen) };
}

/**
 * cheapest_first asks the own index alone first (it costs us nothing) and the partners only if
 * that was not enough; every other strategy asks all its providers at once.
 */
function wavesFor(strategy: WaterfallStrategy, providers: ProviderSlug[]): ProviderSlug[][] {
  if (strategy === 'cheapest_first' && providers[0] === 'own_index' && providers.length > 1) {
    return [['own_index'], providers.slice(1)];
  }
  return [providers];
}
