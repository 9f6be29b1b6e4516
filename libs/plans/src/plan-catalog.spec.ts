import {
  cheapestPlanFor,
  PLAN_CAPS,
  planAtLeast,
  planRequiredRefusal,
  planWithMore,
  providersForPlan,
} from './plan-catalog.js';

describe('plan catalog', () => {
  it('routes free and starter to the own index only', () => {
    expect(providersForPlan('free')).toEqual(['own_index']);
    expect(providersForPlan('starter')).toEqual(['own_index']);
  });

  it('gives growth the own index plus exactly two partners', () => {
    const providers = providersForPlan('growth');
    expect(providers[0]).toBe('own_index');
    expect(providers.filter((p) => p !== 'own_index')).toHaveLength(2);
  });

  it('gives pro and above all seven sources', () => {
    for (const plan of ['pro', 'scale', 'enterprise'] as const) expect(providersForPlan(plan)).toHaveLength(7);
  });

  it('orders plans', () => {
    expect(planAtLeast('pro', 'pro')).toBe(true);
    expect(planAtLeast('growth', 'pro')).toBe(false);
    expect(planAtLeast('enterprise', 'pro')).toBe(true);
  });

  it('names the cheapest plan that includes the providers asked for', () => {
    expect(cheapestPlanFor(['own_index'])).toBe('free');
    expect(cheapestPlanFor(['provider_a'])).toBe('growth');
    expect(cheapestPlanFor(['provider_f'])).toBe('pro');
  });

  it('words a plan_required refusal the same wherever it is made', () => {
    expect(planRequiredRefusal(['provider_a', 'provider_f'])).toEqual({
      message: 'Your plan does not include provider_a, provider_f.',
      required_plan: 'pro',
    });
  });

  it('caps grow with the plan, and name the next plan that allows more', () => {
    expect(planWithMore('pro', 'watches')).toBe('scale');
    expect(planWithMore('growth', 'watches')).toBe('pro');
    expect(planWithMore('enterprise', 'watches')).toBeUndefined();
    expect(planWithMore('free', 'unfinishedAsyncSearches')).toBe('starter');
    const order = ['free', 'starter', 'growth', 'pro', 'scale', 'enterprise'] as const;
    for (let i = 1; i < order.length; i++)
      expect(PLAN_CAPS[order[i]!].unfinishedAsyncSearches).toBeGreaterThan(
        PLAN_CAPS[order[i - 1]!].unfinishedAsyncSearches,
      );
  });
});
