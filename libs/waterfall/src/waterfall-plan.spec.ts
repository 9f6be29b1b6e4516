import { planWaterfall, ProviderNotOnPlanError } from './waterfall-plan.js';
import { PROVIDER_SLUGS as ALL, type JobSearchRequest } from '@jobs/contracts';

const waterfall = (w: Partial<JobSearchRequest['waterfall']>): Pick<JobSearchRequest, 'waterfall'> => ({
  waterfall: { strategy: 'cheapest_first', timeout_ms: 10000, min_sources: 2, ...w },
});

describe('planWaterfall', () => {
  it('asks every provider of the plan, own index first, by default', () => {
    const plan = planWaterfall(waterfall({}), ['provider_b', 'own_index', 'provider_a']);
    expect(plan.providers).toEqual(['own_index', 'provider_b', 'provider_a']);
  });

  it('asks the own index alone first with cheapest_first, all at once otherwise', () => {
    expect(planWaterfall(waterfall({}), ALL).waves).toEqual([
      ['own_index'],
      ['provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f'],
    ]);
    expect(planWaterfall(waterfall({ strategy: 'max_coverage' }), ALL).waves).toHaveLength(1);
    expect(planWaterfall(waterfall({ strategy: 'consensus' }), ALL).waves[0]).toHaveLength(7);
    expect(planWaterfall(waterfall({ providers: ['provider_a', 'provider_b'] }), ALL).waves).toEqual([
      ['provider_a', 'provider_b'],
    ]);
  });

  it('searches only the own index with own_only', () => {
    expect(planWaterfall(waterfall({ strategy: 'own_only' }), ALL).providers).toEqual(['own_index']);
  });

  it('rejects providers that are not on the plan', () => {
    expect(() => planWaterfall(waterfall({ providers: ['provider_c'] }), ['own_index', 'provider_a'])).toThrow(
      ProviderNotOnPlanError,
    );
  });

  it('orders freshest_first by listing lag, lowest first', () => {
    const plan = planWaterfall(waterfall({ strategy: 'freshest_first' }), ALL);
    expect(plan.providers).toEqual([
      'provider_c',
      'own_index',
      'provider_a',
      'provider_f',
      'provider_b',
      'provider_d',
      'provider_e',
    ]);
    expect(plan.waves).toEqual([plan.providers]);
  });

  it('keeps only the listed providers, once each', () => {
    expect(planWaterfall(waterfall({ providers: ['provider_a', 'provider_a'] }), ALL).providers).toEqual([
      'provider_a',
    ]);
  });
});
