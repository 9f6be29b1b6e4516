import { JobSearchRequestSchema } from '@jobs/contracts';
import { requestFingerprint } from './result-sets.store.js';

const request = (body: unknown) => JobSearchRequestSchema.parse(body);
const base = { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' }, limit: 10 };

describe('requestFingerprint (what the pages of one result set must share)', () => {
  it('ignores max_credits: a walk within a budget sends each page what is left of it', () => {
    const capped = (max_credits: number) => request({ ...base, waterfall: { ...base.waterfall, max_credits } });
    expect(requestFingerprint('acc_1', capped(7))).toBe(requestFingerprint('acc_1', capped(2)));
    expect(requestFingerprint('acc_1', capped(7))).toBe(requestFingerprint('acc_1', request(base)));
  });

  it('changes with the filters, the rest of the waterfall, the limit and the account', () => {
    const one = requestFingerprint('acc_1', request(base));
    expect(requestFingerprint('acc_2', request(base))).not.toBe(one);
    expect(requestFingerprint('acc_1', request({ ...base, limit: 11 }))).not.toBe(one);
    expect(requestFingerprint('acc_1', request({ ...base, filters: { title_or: ['analyst'] } }))).not.toBe(one);
    expect(requestFingerprint('acc_1', request({ ...base, waterfall: { strategy: 'cheapest_first' } }))).not.toBe(one);
    expect(
      requestFingerprint('acc_1', request({ ...base, waterfall: { ...base.waterfall, providers: ['own_index'] } })),
    ).not.toBe(one);
  });
});
