import type { ProviderAdapter } from './provider-adapter.js';
import { DEFAULT_RESILIENCE, ResilientAdapter, type ResilienceSettings } from './resilient-adapter.js';
import { OwnIndexAdapter } from './own-index.adapter.js';
import { ProviderAAdapter } from './provider-a.adapter.js';
import { ProviderBAdapter } from './provider-b.adapter.js';
import { ProviderCAdapter } from './provider-c.adapter.js';
import { ProviderDAdapter } from './provider-d.adapter.js';
import { ProviderEAdapter } from './provider-e.adapter.js';
import { ProviderFAdapter } from './provider-f.adapter.js';

/**
 * Every provider the fetcher can call, against one base URL (the simulator locally), each
 * behind its concurrency limit, retries within the deadline and circuit breaker.
 */
export function createProviderAdapters(
  baseUrl: string,
  resilience: ResilienceSettings = DEFAULT_RESILIENCE,
): ProviderAdapter[] {
  const adapters: ProviderAdapter[] = [
    new OwnIndexAdapter(baseUrl),
    new ProviderAAdapter(baseUrl),
    new ProviderBAdapter(baseUrl),
    new ProviderCAdapter(baseUrl),
    new ProviderDAdapter(baseUrl),
    new ProviderEAdapter(baseUrl),
    new ProviderFAdapter(baseUrl),
  ];
  return adapters.map((adapter) => new ResilientAdapter(adapter, resilience));
}
