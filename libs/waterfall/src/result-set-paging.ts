import type { ChunkPosition, ProviderSlug } from '@jobs/contracts';
import type { ProviderBatch, SearchResult } from './search-page.js';
import type { WaterfallPlan } from './waterfall-plan.js';

/**
 * Whether the first page of a search can be followed by another one, so its whole result set
 * must be kept for the cursor: the set is longer than one page, `max_credits` is below the
 * page's length, so billing may stop the results before the page ends (even when the whole set
 * fits in one page), or a provider may still hold matching jobs beyond the set. Billing decides
 * where the next page starts; it can only point into a set that was kept.
 */
export function firstPageMayContinue(setSize: number, limit: number, maxCredits: number | null, more = false): boolean {
  if (more || setSize > limit) return true;
  return maxCredits !== null && maxCredits < setSize;
}

/** Where each provider's next read starts; null: it has no more. */
export type ProviderPositions = Partial<Record<ProviderSlug, ChunkPosition | null>>;

/** The first position of a provider: its first page; the own index answers from its store. */
export function firstPosition(provider: ProviderSlug): ChunkPosition {
  return provider === 'own_index' ? { kind: 'store', after: null } : { kind: 'pages', page: null };
}

/**
 * Where each provider of a search continues after one round of reads: a provider that answered
 * continues where its batch ended (null when it had no more); one that was not asked in this
 * round (a later wave that was not needed) continues from where it would have started. One that
 * failed or timed out is dropped from the later pages, as from this one (the page said so:
 * `partial`), so a dead provider never holds paging open.
 */
export function nextPositions(
  providers: readonly ProviderSlug[],
  asked: readonly ProviderSlug[],
  batches: readonly ProviderBatch[],
  from: ProviderPositions,
): ProviderPositions {
  const byProvider = new Map(batches.map((b) => [b.provider, b]));
  const out: ProviderPositions = {};
  for (const provider of providers) {
    const batch = byProvider.get(provider);
    if (asked.includes(provider)) out[provider] = batch?.outcome === 'ok' ? (batch.next ?? null) : null;
    else out[provider] = from[provider] === undefined ? firstPosition(provider) : from[provider];
  }
  return out;
}

/** Some provider may still hold matching jobs. */
export function hasMore(positions: ProviderPositions): boolean {
  return Object.values(positions).some((p) => p !== null && p !== undefined);
}

/** The providers to read again, in the plan's priority order. */
export function providersWithMore(plan: readonly ProviderSlug[], positions: ProviderPositions): ProviderSlug[] {
  return plan.filter((p) => positions[p] !== null && positions[p] !== undefined);
}

/**
 * The providers a later page reads further, as the plan's waves say: those of the earliest wave
 * that still has more. A strategy that asks the own index first and the partners only when it
 * falls short (`cheapest_first`) does so on every page, not only the first: its later waves'
 * partners keep their first page until the waves before them run out.
 */
export function nextWaveWithMore(plan: WaterfallPlan, positions: ProviderPositions): ProviderSlug[] {
  for (const wave of plan.waves) {
    const more = providersWithMore(wave, positions);
    if (more.length > 0) return more;
  }
  return [];
}

type Metadata = SearchResult['metadata'];

/**
 * A result set's metadata once a round of reads grew it: every provider asked for the set so far
 * (in plan order), those that brought a match, and those whose latest read failed (a provider that
 * failed once and answered since is not failed); `partial` while any is. The round's own latency
 * and records merged, as the page it answers is this request's.
 */
export function grownSetMetadata(set: Metadata, round: Metadata, planOrder: readonly ProviderSlug[]): Metadata {
  const inPlanOrder = (providers: Iterable<ProviderSlug>) => {
    const wanted = new Set(providers);
    return planOrder.filter((p) => wanted.has(p));
  };
  const askedNow = new Set(round.providers.tried);
  const failed = [...set.providers.failed.filter((f) => !askedNow.has(f.provider)), ...round.providers.failed];
  const order = new Map(planOrder.map((p, i) => [p, i]));
  failed.sort((a, b) => (order.get(a.provider) ?? 0) - (order.get(b.provider) ?? 0));
  return {
    ...round,
    status: failed.length > 0 ? 'partial' : 'complete',
    providers: {
      tried: inPlanOrder([...set.providers.tried, ...round.providers.tried]),
      hit: inPlanOrder([...set.providers.hit, ...round.providers.hit]),
      failed,
    },
  };
}
