/**
 * The refresh planner's rules (pure): the scopes of the live watches and the providers to read
 * for each.
 *
 * - Company watch: filters `{company_domain_or: [domain]}` plus the watch's own filters; key
 *   `company:<domain>` when it has none, else `company:<domain>:<digest of the filters>`.
 * - Search watch: its filters; key `filters:<digest of the filters>`.
 * - `include_closed` and `posted_within_days` are left out of a scope: a refresh reads the
 *   live listing, and a time window would make a job drop out of the listing by age alone,
 *   which must never look like a closure.
 * - Identical scopes (same key) are read once; their providers are the union of those routable
 *   on the plans of the watching accounts. Scopes come out sorted by key, providers in the
 *   catalogue order, so a pass is deterministic.
 */
import type { Filters, ProviderSlug, RefreshScope } from '@jobs/contracts';
import { digestOf } from '@jobs/cursors';
import { isLive, type WatchRecord } from '../watches/watch.js';

export interface PlannedScope {
  scope: RefreshScope;
  providers: ProviderSlug[];
}

const PROVIDER_ORDER: readonly ProviderSlug[] = ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f'];

/** The filters a watch's refresh reads, without the parts that do not describe a listing. */
function listingFilters(filters: Filters | null): Filters {
  const { include_closed: _closed, posted_within_days: _window, ...rest } = filters ?? {};
  return rest;
}

const digest = (filters: Filters) => digestOf(filters, 'base64url').slice(0, 22);

/** The refresh scope of one watch. */
export function scopeOf(watch: WatchRecord): RefreshScope {
  const own = listingFilters(watch.filters);
  if (watch.type === 'company' && watch.domain !== null) {
    const hasOwn = Object.keys(own).length > 0;
    return {
      key: hasOwn ? `company:${watch.domain}:${digest(own)}` : `company:${watch.domain}`,
      filters: { ...own, company_domain_or: [watch.domain] },
    };
  }
  return { key: `filters:${digest(own)}`, filters: own };
}

/** Every scope to refresh, merged, with the union of the watching accounts' providers. */
export function planRefresh(watches: readonly WatchRecord[]): PlannedScope[] {
  const byKey = new Map<string, { scope: RefreshScope; providers: Set<ProviderSlug> }>();
  for (const watch of watches) {
    if (!isLive(watch)) continue;
    const scope = scopeOf(watch);
    const entry = byKey.get(scope.key) ?? { scope, providers: new Set<ProviderSlug>() };
    for (const provider of watch.providersEnabled) entry.providers.add(provider);
    byKey.set(scope.key, entry);
  }
  return [...byKey.values()]
    .filter((entry) => entry.providers.size > 0)
    .sort((a, b) => (a.scope.key < b.scope.key ? -1 : a.scope.key > b.scope.key ? 1 : 0))
    .map((entry) => ({ scope: entry.scope, providers: PROVIDER_ORDER.filter((p) => entry.providers.has(p)) }));
}
