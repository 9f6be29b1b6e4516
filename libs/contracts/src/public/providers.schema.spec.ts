import {
  PARTNER_PROVIDER_SLUGS,
  PlanSchema,
  ProviderListResponseSchema,
  ProviderSchema,
  ProviderSlugSchema,
} from './providers.schema.js';

const provider = {
  slug: 'provider_a',
  name: 'Provider A',
  enabled_on_your_plan: true,
  status: 'operational',
  last_checked_at: '2026-10-01T12:00:00Z',
};

describe('provider slugs and plans', () => {
  it('has the seven slugs and six partners', () => {
    expect(ProviderSlugSchema.options).toHaveLength(7);
    expect(PARTNER_PROVIDER_SLUGS).toEqual([
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
      'provider_f',
    ]);
    expect(ProviderSlugSchema.safeParse('provider_g').success).toBe(false);
    expect(ProviderSlugSchema.safeParse('Own_Index').success).toBe(false);
  });
  it('has the six plans', () => {
    expect(PlanSchema.options).toEqual(['free', 'starter', 'growth', 'pro', 'scale', 'enterprise']);
    expect(PlanSchema.safeParse('business').success).toBe(false);
  });
});

describe('ProviderSchema', () => {
  it('parses a provider', () => expect(ProviderSchema.parse(provider)).toEqual(provider));
  it('rejects a wrong status, an unknown key and a missing field', () => {
    expect(ProviderSchema.safeParse({ ...provider, status: 'up' }).success).toBe(false);
    expect(ProviderSchema.safeParse({ ...provider, extra: 1 }).success).toBe(false);
    const { name: _name, ...withoutName } = provider;
    expect(ProviderSchema.safeParse(withoutName).success).toBe(false);
  });
  it('lists at most seven providers', () => {
    expect(ProviderListResponseSchema.safeParse({ data: Array(7).fill(provider) }).success).toBe(true);
    expect(ProviderListResponseSchema.safeParse({ data: Array(8).fill(provider) }).success).toBe(false);
  });
});
