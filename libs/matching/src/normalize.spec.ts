import { blockingKey, normalizeCompanyName, normalizeDomain, normalizeTitle } from './normalize.js';

describe('normalizeTitle', () => {
  it.each([
    ['Senior Software Engineer (m/f/d)', 'senior software engineer'],
    ['Sr. Software Engineer - Remote', 'senior software engineer'],
    ['SENIOR  SOFTWARE   ENGINEER', 'senior software engineer'],
    ['Ingénieur Logiciel', 'ingenieur logiciel'],
    ['C# Developer', 'c# developer'],
    ['Sales & Marketing Lead', 'sales and marketing lead'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeTitle(input)).toBe(expected);
  });

  it('keeps titles that differ in substance apart', () => {
    expect(normalizeTitle('Backend Engineer')).not.toBe(normalizeTitle('Frontend Engineer'));
  });
});

describe('normalizeCompanyName', () => {
  it('drops legal suffixes and punctuation', () => {
    expect(normalizeCompanyName('Acme, Inc.')).toBe('acme');
    expect(normalizeCompanyName('Acme GmbH')).toBe('acme');
  });
});

describe('normalizeDomain', () => {
  it('reduces URLs and www to the bare host', () => {
    expect(normalizeDomain('https://www.Acme.com/careers?x=1')).toBe('acme.com');
    expect(normalizeDomain('acme.io')).toBe('acme.io');
    expect(normalizeDomain('localhost')).toBeNull();
    expect(normalizeDomain(null)).toBeNull();
  });
});

describe('blockingKey', () => {
  it('puts provider variants of one opening in one block', () => {
    expect(blockingKey('acme.com', 'Data Engineer (m/f/d)', 'GB')).toBe(blockingKey('acme.com', 'data engineer', 'GB'));
  });
  it('separates countries', () => {
    expect(blockingKey('acme.com', 'Data Engineer', 'GB')).not.toBe(blockingKey('acme.com', 'Data Engineer', 'US'));
  });
});
