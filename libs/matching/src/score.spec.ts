import { recordToMatch } from './canonical-index.js';
import { pairScore, record } from './canonical-index.spec-helper.js';
import { MATCH_THRESHOLD, decide, type CandidateJob } from './score.js';

describe('scoreCandidate', () => {
  it('vetoes different company domains and countries', () => {
    expect(pairScore(record(), record({ company: { name: 'Apexstack', domain: 'other.com' } }))).toBe(-Infinity);
    expect(
      pairScore(record(), record({ location: { city: 'Turin', region: null, country_code: 'DE', remote: false } })),
    ).toBe(-Infinity);
  });

  it('explains each contribution', () => {
    const explain: Record<string, number> = {};
    const score = pairScore(record({ provider: 'provider_b' }), record(), explain);
    expect(explain).toMatchObject({ applyUrl: 5, title: 1.5, city: 1, salary: 0.5, description: 2, posted: 2 });
    expect(score).toBe(Object.values(explain).reduce((a, b) => a + b, 0));
  });

  it('counts date-only postings by day', () => {
    const explain: Record<string, number> = {};
    pairScore(record({ posted_at: '2026-11-03T00:00:00.000Z' }), record({ provider: 'provider_b' }), explain);
    expect(explain['posted']).toBe(1);
    pairScore(record({ posted_at: '2026-11-06T00:00:00.000Z' }), record({ provider: 'provider_b' }), explain);
    expect(explain['posted']).toBeLessThan(0);
  });

  it('ignores a missing field instead of counting it against', () => {
    const explain: Record<string, number> = {};
    pairScore(
      record({ employment_type: null, seniority: null, salary: null, description: null }),
      record({ provider: 'provider_b' }),
      explain,
    );
    expect(Object.keys(explain).sort()).toEqual(['applyUrl', 'city', 'posted', 'title']);
  });
});

describe('decide', () => {
  it('takes the best candidate and none below the threshold', () => {
    const input = recordToMatch(record({ provider: 'provider_b' }));
    const good = recordToMatch(record());
    const weak = recordToMatch(record({ apply_url: null, description: null, posted_at: '2026-10-01T10:00:00.000Z' }));
    const job = (id: string, r: typeof good): CandidateJob => ({
      id,
      features: r.features,
      keys: new Set(r.keys),
      providers: new Set(['provider_a']),
    });
    expect(decide(input, [job('weak', weak), job('good', good)]).jobId).toBe('good');
    const alone = decide(input, [job('weak', weak)]);
    expect(alone.jobId).toBeNull();
    expect(alone.score).toBeLessThan(MATCH_THRESHOLD);
    expect(decide(input, []).jobId).toBeNull();
  });
});
