import type { CompanyRef } from '@jobs/contracts';

function company(slug: string, name: string, hasDomain = true): CompanyRef {
  return { id: `cmp_sandbox_${slug.replaceAll('-', '_')}`, name, domain: hasDomain ? `${slug}.example` : null };
}

/** Twelve fictional employers; one has no known web domain (`domain: null`). */
export const SANDBOX_COMPANIES = {
  acme: company('acme-robotics', 'Acme Robotics'),
  bluefin: company('bluefin-analytics', 'Bluefin Analytics'),
  cobalt: company('cobalt-health', 'Cobalt Health'),
  driftwood: company('driftwood-games', 'Driftwood Games'),
  ember: company('ember-energy', 'Ember Energy'),
  fjordline: company('fjordline-payments', 'Fjordline Payments'),
  granite: company('granite-freight', 'Granite Freight'),
  harbor: company('harbor-learning', 'Harbor Learning'),
  kestrel: company('kestrel-aerospace', 'Kestrel Aerospace'),
  lumen: company('lumen-security', 'Lumen Security'),
  meridian: company('meridian-foods', 'Meridian Foods'),
  quietPines: company('quiet-pines-bakery', 'Quiet Pines Bakery', false),
} as const satisfies Record<string, CompanyRef>;

export type SandboxCompanyKey = keyof typeof SANDBOX_COMPANIES;
