import type { ProviderAdapter } from './provider-adapter.js';
import { OwnIndexAdapter } from './own-index.adapter.js';

/** Every provider the fetcher can call, against one base URL (the simulator locally). */
export function createProviderAdapters(baseUrl: string): ProviderAdapter[] {
  return [new OwnIndexAdapter(baseUrl)];
}
