import type { ProviderSlug } from '../types.js';
import type { World } from '../world.js';
import type { ProviderRoute, ProviderView } from './common.js';
import type { IdCodec } from './id-codec.js';
import { ownIndexView, OWN_INDEX_IDS, OWN_INDEX_ROUTES } from './own-index.view.js';
import { providerAView, PROVIDER_A_IDS, PROVIDER_A_ROUTES } from './provider-a.view.js';
import { providerBView, PROVIDER_B_IDS, PROVIDER_B_ROUTES } from './provider-b.view.js';
import { providerCView, PROVIDER_C_IDS, PROVIDER_C_ROUTES } from './provider-c.view.js';
import { providerDView, PROVIDER_D_IDS, PROVIDER_D_ROUTES } from './provider-d.view.js';
import { providerEView, PROVIDER_E_IDS, PROVIDER_E_ROUTES } from './provider-e.view.js';
import { providerFView, PROVIDER_F_IDS, PROVIDER_F_ROUTES } from './provider-f.view.js';

/**
 * How the simulator plays one source. What the services know of a provider (its name, listing
 * lag, health check) is the provider registry's in @jobs/contracts; the simulated market shows each
 * provider's postings as late as that lag says.
 */
export interface SimProvider {
  /** Its HTTP API over a world, in its own format. */
  view: (world: World) => ProviderView;
  /** The routes of that API (the simulator serves each). */
  routes: readonly ProviderRoute[];
  /** How it prints its job ids. */
  ids: IdCodec;
  /** Its typical response time, jittered ±20 % per request (the operator may set another). */
  latencyMs: number;
  /** The share of openings it lists, before the per-opening visibility factor. */
  listingShare: number;
}

/** The simulator's registry: every source it serves. */
export const SIM_PROVIDERS = {
  own_index: { view: ownIndexView, routes: OWN_INDEX_ROUTES, ids: OWN_INDEX_IDS, latencyMs: 40, listingShare: 0.3 },
  provider_a: {
    view: providerAView,
    routes: PROVIDER_A_ROUTES,
    ids: PROVIDER_A_IDS,
    latencyMs: 120,
    listingShare: 0.55,
  },
  provider_b: {
    view: providerBView,
    routes: PROVIDER_B_ROUTES,
    ids: PROVIDER_B_IDS,
    latencyMs: 250,
    listingShare: 0.45,
  },
  provider_c: {
    view: providerCView,
    routes: PROVIDER_C_ROUTES,
    ids: PROVIDER_C_IDS,
    latencyMs: 80,
    listingShare: 0.36,
  },
  provider_d: {
    view: providerDView,
    routes: PROVIDER_D_ROUTES,
    ids: PROVIDER_D_IDS,
    latencyMs: 400,
    listingShare: 0.4,
  },
  provider_e: {
    view: providerEView,
    routes: PROVIDER_E_ROUTES,
    ids: PROVIDER_E_IDS,
    latencyMs: 180,
    listingShare: 0.3,
  },
  provider_f: {
    view: providerFView,
    routes: PROVIDER_F_ROUTES,
    ids: PROVIDER_F_IDS,
    latencyMs: 300,
    listingShare: 0.32,
  },
} as const satisfies Record<ProviderSlug, SimProvider>;
