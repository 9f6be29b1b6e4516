import { CompanyProfileSchema } from '@jobs/contracts';
import { companyProfile, hiringPulse, isHiring, isHiringFrom, type CompanyJobFacts } from './company-profile.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const daysAgo = (n: number) => new Date(NOW.getTime() - n * 86_400_000);
const company = { id: 'cmp_1', name: 'Acme', domain: 'acme.example' };

function job(overrides: Partial<CompanyJobFacts> = {}): CompanyJobFacts {
  return {
    status: 'open',
    firstSeenAt: daysAgo(5),
    lastSeenAt: daysAgo(1),
    closedAt: null,
    reopenedFrom: null,
    reopenedAt: null,
    pReal: 0.6,
    jobFamily: 'engineering',
    sources: [{ provider: 'provider_a', lastSeenAt: daysAgo(1) }],
    ...overrides,
  };
}
const closed = (closedDaysAgo: number, overrides: Partial<CompanyJobFacts> = {}) =>
  job({ status: 'closed', closedAt: daysAgo(closedDaysAgo), lastSeenAt: daysAgo(closedDaysAgo + 1), ...overrides });

describe('isHiring', () => {
  it('is true with a recently seen open job; corroboration raises confidence', () => {
    const one = isHiring([job()], NOW);
    expect(one).toMatchObject({ value: true, confidence: 0.6 });
    expect(one.basis).toContain('1 open job');
    const two = isHiring([job(), job({ pReal: 0.8 })], NOW);
    expect(two.value).toBe(true);
    expect(two.confidence).toBe(0.92);
    expect(isHiring([job({ pReal: 0.99 }), job({ pReal: 0.99 })], NOW).confidence).toBe(0.99);
  });

  it('is unknown (null) when nothing was ever seen, never false', () => {
    expect(isHiring([], NOW)).toMatchObject({ value: null, confidence: 0 });
  });

  it('is unknown when the open jobs were not seen for over 30 days', () => {
    const stale = isHiring([job({ lastSeenAt: daysAgo(31) })], NOW);
    expect(stale.value).toBeNull();
    expect(stale.basis).toContain('not seen');
  });

  it('is false only when every job closed and one closed recently', () => {
    const stopped = isHiring([closed(3), closed(10)], NOW);
    expect(stopped).toMatchObject({ value: false, confidence: 0.8 });
    expect(stopped.basis).toContain('2026-11-17');
    expect(isHiring([closed(100)], NOW).value).toBeNull();
    expect(isHiring([closed(3), job()], NOW).value).toBe(true);
  });

  it('judges from the open jobs and a summary of the closed ones as from every job', () => {
    const history = [closed(3), closed(10), closed(400), ...Array.from({ length: 50 }, () => closed(500))];
    expect(isHiringFrom({ open: [], closedCount: history.length, lastClosedAt: daysAgo(3) }, NOW)).toEqual(
      isHiring(history, NOW),
    );
    const open = [job(), job({ lastSeenAt: daysAgo(40) })];
    expect(isHiringFrom({ open, closedCount: 53, lastClosedAt: daysAgo(3) }, NOW)).toEqual(
      isHiring([...open, ...history], NOW),
    );
  });
});

describe('hiringPulse', () => {
  it('counts open jobs now against open jobs 30 days ago', () => {
    expect(hiringPulse([job(), job()], NOW)).toEqual({ direction: 'up', open_jobs_30d_change: 2 });
    expect(hiringPulse([job({ firstSeenAt: daysAgo(60) })], NOW)).toEqual({
      direction: 'flat',
      open_jobs_30d_change: 0,
    });
    // open 30 days ago, closed since
    expect(
      hiringPulse([closed(10, { firstSeenAt: daysAgo(60) }), closed(5, { firstSeenAt: daysAgo(45) })], NOW),
    ).toEqual({ direction: 'down', open_jobs_30d_change: -2 });
    // closed before the window began: it was not open then either
    expect(hiringPulse([closed(40, { firstSeenAt: daysAgo(60) })], NOW)).toEqual({
      direction: 'flat',
      open_jobs_30d_change: 0,
    });
  });

  it('counts a re-listed job by the closing its re-listing ended', () => {
    const relisted = (from: number, until: number) =>
      job({ firstSeenAt: daysAgo(90), reopenedFrom: daysAgo(from), reopenedAt: daysAgo(until) });
    // closed 40 days ago, re-listed 10 days ago: closed 30 days ago, open now
    expect(hiringPulse([relisted(40, 10)], NOW)).toEqual({ direction: 'up', open_jobs_30d_change: 1 });
    // its closing was over before the window began, or began after it: open then and now
    expect(hiringPulse([relisted(60, 45), relisted(20, 5)], NOW)).toEqual({
      direction: 'flat',
      open_jobs_30d_change: 0,
    });
    // re-listed, then closed again: the second closing counts as any closing does
    const closedAgain = closed(3, { firstSeenAt: daysAgo(90), reopenedFrom: daysAgo(40), reopenedAt: daysAgo(10) });
    expect(hiringPulse([closedAgain], NOW)).toEqual({ direction: 'flat', open_jobs_30d_change: 0 });
  });
});

describe('companyProfile', () => {
  it('puts it together: counts, families, sources per provider', () => {
    const jobs = [
      job({
        jobFamily: 'engineering',
        sources: [
          { provider: 'provider_a', lastSeenAt: daysAgo(1) },
          { provider: 'own_index', lastSeenAt: daysAgo(2) },
        ],
      }),
      job({ jobFamily: 'engineering', sources: [{ provider: 'provider_a', lastSeenAt: daysAgo(3) }] }),
      job({ jobFamily: 'sales', sources: [{ provider: 'provider_b', lastSeenAt: daysAgo(4) }] }),
      job({ jobFamily: null }),
      closed(2, { jobFamily: 'finance', sources: [{ provider: 'provider_c', lastSeenAt: daysAgo(3) }] }),
    ];
    const profile = companyProfile(company, jobs, NOW);
    expect(CompanyProfileSchema.parse(profile)).toEqual(profile);
    expect(profile.open_jobs_count).toBe(4);
    expect(profile.is_hiring.value).toBe(true);
    expect(profile.top_job_families).toEqual([
      { job_family: 'engineering', open_jobs: 2 },
      { job_family: 'sales', open_jobs: 1 },
    ]);
    expect(profile.sources).toEqual([
      { provider: 'own_index', open_jobs: 1, last_seen_at: daysAgo(2).toISOString() },
      { provider: 'provider_a', open_jobs: 3, last_seen_at: daysAgo(1).toISOString() },
      { provider: 'provider_b', open_jobs: 1, last_seen_at: daysAgo(4).toISOString() },
      { provider: 'provider_c', open_jobs: 0, last_seen_at: daysAgo(3).toISOString() },
    ]);
  });

  it('keeps at most five families, largest first then by name', () => {
    const families = ['a', 'b', 'c', 'd', 'e', 'f'];
    const jobs = families.flatMap((f, i) => Array.from({ length: i === 5 ? 2 : 1 }, () => job({ jobFamily: f })));
    expect(companyProfile(company, jobs, NOW).top_job_families.map((f) => f.job_family)).toEqual([
      'f',
      'a',
      'b',
      'c',
      'd',
    ]);
  });
});
