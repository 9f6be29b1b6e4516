import { RefreshScopeSchema } from '@jobs/contracts';
import type { WatchRecord } from '../watches/watch.js';
import { planRefresh, scopeOf } from './refresh-plan.js';

let n = 0;
function watch(overrides: Partial<WatchRecord> = {}): WatchRecord {
  n += 1;
  return {
    id: `wat_${n}`,
    accountId: 'acc_1',
    type: 'company',
    domain: 'acme.example',
    filters: null,
    webhookUrl: 'https://hooks.example.com/jobs',
    events: ['job.opened'],
    status: 'active',
    mode: 'live',
    providersEnabled: ['own_index', 'provider_a', 'provider_b', 'provider_c', 'provider_d', 'provider_e', 'provider_f'],
    createdAt: new Date('2026-10-01T12:00:00.000Z'),
    ...overrides,
  };
}

describe('scopeOf', () => {
  it('reads a whole company for a company watch without filters', () => {
    expect(scopeOf(watch())).toEqual({ key: 'company:acme.example', filters: { company_domain_or: ['acme.example'] } });
  });

  it('adds a company watch filters, under a key of its own', () => {
    const scope = scopeOf(watch({ filters: { title_or: ['engineer'] } }));
    expect(scope.filters).toEqual({ title_or: ['engineer'], company_domain_or: ['acme.example'] });
    expect(scope.key).toMatch(/^company:acme\.example:[A-Za-z0-9_-]{22}$/);
    expect(RefreshScopeSchema.parse(scope)).toEqual(scope);
  });

  it('keys a search watch by the digest of its filters, whatever their key order', () => {
    const a = scopeOf(watch({ type: 'search', domain: null, filters: { title_or: ['engineer'], country_code_or: ['GB'] } }));
    const b = scopeOf(watch({ type: 'search', domain: null, filters: { country_code_or: ['GB'], title_or: ['engineer'] } }));
    expect(a.key).toMatch(/^filters:/);
    expect(a).toEqual(b);
    const c = scopeOf(watch({ type: 'search', domain: null, filters: { title_or: ['designer'] } }));
    expect(c.key).not.toBe(a.key);
  });

  it('leaves include_closed and posted_within_days out of the listing', () => {
    const scope = scopeOf(watch({ type: 'search', domain: null, filters: { title_or: ['engineer'], include_closed: true, posted_within_days: 7 } }));
    expect(scope).toEqual(scopeOf(watch({ type: 'search', domain: null, filters: { title_or: ['engineer'] } })));
    expect(scopeOf(watch({ filters: { posted_within_days: 3 } })).key).toBe('company:acme.example');
  });
});

describe('planRefresh', () => {
  it('merges identical scopes and unions their providers in catalogue order', () => {
    const plan = planRefresh([
      watch({ providersEnabled: ['own_index', 'provider_b'] }),
      watch({ providersEnabled: ['provider_a', 'own_index'] }),
      watch({ domain: 'beta.example', providersEnabled: ['own_index'] }),
    ]);
    expect(plan).toEqual([
      { scope: { key: 'company:acme.example', filters: { company_domain_or: ['acme.example'] } }, providers: ['own_index', 'provider_a', 'provider_b'] },
      { scope: { key: 'company:beta.example', filters: { company_domain_or: ['beta.example'] } }, providers: ['own_index'] },
    ]);
  });

  it('ignores paused and test-key watches', () => {
    expect(planRefresh([watch({ status: 'paused' }), watch({ mode: 'test', domain: 'x.example' })])).toEqual([]);
  });

  it('sorts scopes by key and is the same for any order of watches', () => {
    const watches = [watch({ domain: 'zeta.example' }), watch({ type: 'search', domain: null, filters: { title_or: ['a'] } }), watch({ domain: 'alpha.example' })];
    const plan = planRefresh(watches);
    expect(plan.map((p) => p.scope.key)).toEqual([...plan.map((p) => p.scope.key)].sort());
    expect(planRefresh([...watches].reverse())).toEqual(plan);
  });

  it('plans nothing without watches', () => {
    expect(planRefresh([])).toEqual([]);
  });
});
