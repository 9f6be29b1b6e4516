import { PROVIDER_SLUGS, PROVIDERS, type ProviderSlug } from '@jobs/contracts';
import type { ProviderAdapter } from './provider-adapter.js';
import { ResilientAdapter } from './resilient-adapter.js';
import { OwnIndexAdapter } from './own-index.adapter.js';
import { ProviderAAdapter } from './provider-a.adapter.js';
import { ProviderBAdapter } from './provider-b.adapter.js';
import { ProviderCAdapter } from './provider-c.adapter.js';
import { ProviderDAdapter } from './provider-d.adapter.js';
import { ProviderEAdapter } from './provider-e.adapter.js';
import { ProviderFAdapter } from './provider-f.adapter.js';

/** Each provider's adapter, against one base URL. */
const ADAPTERS = {
  own_index: (baseUrl) => new OwnIndexAdapter(baseUrl),
  provider_a: (baseUrl) => new ProviderAAdapter(baseUrl),
  provider_b: (baseUrl) => new ProviderBAdapter(baseUrl),
  provider_c: (baseUrl) => new ProviderCAdapter(baseUrl),
  provider_d: (baseUrl) => new ProviderDAdapter(baseUrl),
  provider_e: (baseUrl) => new ProviderEAdapter(baseUrl),
  provider_f: (baseUrl) => new ProviderFAdapter(baseUrl),
} satisfies Record<ProviderSlug, (baseUrl: string) => ProviderAdapter>;

/**
 * Every provider the fetcher can call, against one base URL (the simulator locally), each
 * behind the concurrency limit, retries within the deadline and circuit breaker the provider
 * registry gives it.
 */
export function createProviderAdapters(baseUrl: string): ProviderAdapter[] {
  return PROVIDER_SLUGS.map((slug) => new ResilientAdapter(ADAPTERS[slug](baseUrl), PROVIDERS[slug].calls));
}
