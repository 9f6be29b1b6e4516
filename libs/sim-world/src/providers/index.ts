import type { ProviderSlug } from '../types.js';
import type { World } from '../world.js';
import type { ProviderView } from './common.js';
import { ownIndexView } from './own-index.view.js';
import { providerAView } from './provider-a.view.js';
import { providerBView } from './provider-b.view.js';
import { providerCView } from './provider-c.view.js';
import { providerDView } from './provider-d.view.js';
import { providerEView } from './provider-e.view.js';
import { providerFView } from './provider-f.view.js';

export * from './common.js';

/** Every source's HTTP API over one world. */
export function createProviderViews(world: World): Record<ProviderSlug, ProviderView> {
  return {
    own_index: ownIndexView(world),
    provider_a: providerAView(world),
    provider_b: providerBView(world),
    provider_c: providerCView(world),
    provider_d: providerDView(world),
    provider_e: providerEView(world),
    provider_f: providerFView(world),
  };
}
