import { searchIdFor } from './async-searches.usecase.js';

const claim = (key: string, fingerprint: string) => ({
  key,
  record: {
    fingerprint,
    state: 'running' as const,
    request_id: 'req_1',
    lease_until: 0,
    service_version: '2026-10-01',
  },
});

describe('searchIdFor', () => {
  it('names the same search for every retry of one keyed request', () => {
    const id = searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'));
    expect(id).toMatch(/^srch_[A-Za-z0-9_-]{24}$/);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'))).toBe(id);
  });

  it('differs for another key, another account scope or another body, and is random without a key', () => {
    const id = searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp1'));
    expect(searchIdFor(claim('idem:acc_2:POST:/v1/searches:k1', 'fp1'))).not.toBe(id);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k2', 'fp1'))).not.toBe(id);
    expect(searchIdFor(claim('idem:acc_1:POST:/v1/searches:k1', 'fp2'))).not.toBe(id);
    expect(searchIdFor(undefined)).not.toBe(searchIdFor(undefined));
    expect(searchIdFor(undefined)).toMatch(/^srch_/);
  });
});
