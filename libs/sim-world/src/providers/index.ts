import { perProvider } from '@jobs/contracts';
import type { ProviderSlug } from '../types.js';
import type { World } from '../world.js';
import type { ProviderView } from './common.js';
import { SIM_PROVIDERS } from './sim-providers.js';

export * from './common.js';
export type { IdCodec } from './id-codec.js';
export * from './sim-providers.js';

/** Every source's HTTP API over one world. */
export function createProviderViews(world: World): Record<ProviderSlug, ProviderView> {
  return perProvider((slug) => SIM_PROVIDERS[slug].view(world));
}
