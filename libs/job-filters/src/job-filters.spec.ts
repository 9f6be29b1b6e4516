import { examples, type Job } from '@jobs/contracts';
import {
  anyKeywordMatches,
  matchesFilters,
  searchTextMatches,
  titleMatches,
  titleSearchText,
  titleWords,
  yearlyMinimum,
} from './index.js';

const NOW = Date.parse('2026-11-22T12:00:00Z');
const job = (patch: Partial<Job> = {}): Job => ({ ...examples.job(), ...patch });

describe('titleMatches', () => {
  it.each([
    ['Senior Software Engineer', 'engineer', true],
    ['Senior Software Engineer', 'software eng', true],
    ['Senior Software Engineer', 'Engineering Manager', false],
    ['Ingénieur logiciel', 'ingenieur', true],
    ['Data Analyst', 'engineer', false],
    ['Engineering Manager', 'gineer', false],
  ])('%s / %s → %s', (title, keyword, expected) => {
    expect(titleMatches(title, keyword)).toBe(expected);
  });
});

describe('anyKeywordMatches', () => {
  const titles = ['Senior Software Engineer', 'Ingénieur logiciel', 'Data Analyst', 'Straßenbauer', 'C# Developer'];
  it.each([[['engineer', 'analyst']], [['software eng', '   ']], [['strassen', 'c#']], [['---']], [[]]])(
    '%j says what searchTextMatches of each keyword says',
    (keywords) => {
      for (const title of titles) {
        const text = titleSearchText(title);
        const each = keywords.some((keyword) => searchTextMatches(text, keyword));
        // twice: the second answer comes from the needles kept for this keywords array
        expect(anyKeywordMatches(text, keywords)).toBe(each);
        expect(anyKeywordMatches(text, keywords)).toBe(each);
      }
    },
  );
});

describe('matchesFilters', () => {
  it('keeps everything open with no filters and drops closed jobs unless asked', () => {
    expect(matchesFilters(job({ status: 'open', closed_reason: null }), {}, NOW)).toBe(true);
    const closed = job({ status: 'closed', closed_reason: 'filled' });
    expect(matchesFilters(closed, {}, NOW)).toBe(false);
    expect(matchesFilters(closed, { include_closed: true }, NOW)).toBe(true);
  });

  it('applies title_or and title_not', () => {
    const j = job({ title: 'Backend Engineer' });
    expect(matchesFilters(j, { title_or: ['frontend', 'backend'] }, NOW)).toBe(true);
    expect(matchesFilters(j, { title_or: ['designer'] }, NOW)).toBe(false);
    expect(matchesFilters(j, { title_not: ['backend'] }, NOW)).toBe(false);
  });

  it('drops jobs without salary when salary_min_gte is set and compares yearly', () => {
    expect(matchesFilters(job({ salary: null }), { salary_min_gte: 1 }, NOW)).toBe(false);
    const hourly = job({ salary: { min: 40, max: 50, currency: 'USD', period: 'hour', origin: 'declared' } });
    expect(matchesFilters(hourly, { salary_min_gte: 80_000 }, NOW)).toBe(true);
    expect(matchesFilters(hourly, { salary_min_gte: 90_000 }, NOW)).toBe(false);
  });

  it('treats unknown values as not matching a filter on them', () => {
    const unknown = job({ seniority: null, location: { city: null, region: null, country_code: null, remote: null } });
    expect(matchesFilters(unknown, { seniority_or: ['senior'] }, NOW)).toBe(false);
    expect(matchesFilters(unknown, { remote: true }, NOW)).toBe(false);
    expect(matchesFilters(unknown, { remote: null }, NOW)).toBe(true);
    expect(matchesFilters(unknown, { country_code_or: ['GB'] }, NOW)).toBe(false);
  });

  it('counts posted_within_days from first seen', () => {
    const seen = (daysAgo: number) => job({ first_seen_at: new Date(NOW - daysAgo * 86_400_000).toISOString() });
    expect(matchesFilters(seen(2), { posted_within_days: 3 }, NOW)).toBe(true);
    expect(matchesFilters(seen(4), { posted_within_days: 3 }, NOW)).toBe(false);
  });
});

describe('titleSearchText', () => {
  it('keeps the words between single spaces with a leading and trailing space', () => {
    expect(titleSearchText('  Senior C++ / Back-End Engineer (m/w/d)')).toBe(' senior c++ back end engineer m w d ');
    expect(titleWords('Ingénieur Développeur')).toEqual(['ingenieur', 'developpeur']);
  });

  it('turns word-prefix matching into substring matching on " word"', () => {
    for (const [title, keyword] of [
      ['Senior Software Engineer', 'software eng'],
      ['Data Analyst', 'engineer'],
      ['Engineering Manager', 'gineer'],
    ] as const) {
      const text = titleSearchText(title);
      const bySubstring = titleWords(keyword).every((w) => text.includes(` ${w}`));
      expect(bySubstring).toBe(titleMatches(title, keyword));
    }
  });
});

describe('yearlyMinimum', () => {
  it('scales months by 12 and hours by 2080, and is null without a minimum', () => {
    expect(yearlyMinimum({ min: 10, max: null, currency: 'EUR', period: 'hour', origin: 'declared' })).toBe(20800);
    expect(yearlyMinimum({ min: 3000, max: 4000, currency: 'EUR', period: 'month', origin: 'declared' })).toBe(36000);
    expect(yearlyMinimum({ min: null, max: 4000, currency: 'EUR', period: 'year', origin: 'declared' })).toBeNull();
    expect(yearlyMinimum(null)).toBeNull();
  });
});
