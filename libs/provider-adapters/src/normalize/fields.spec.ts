import { enumOrNull, toDomain, toIsoUtc, toUrl, vocabKey } from './fields.js';

describe('toDomain', () => {
  it.each([
    ['https://www.acme.com', 'acme.com'],
    ['https://www.acme.com/', 'acme.com'],
    ['http://acme.com/', 'acme.com'],
    ['www.Acme.co.uk', 'acme.co.uk'],
    ['acme.de', 'acme.de'],
    ['https://acme.com:8443/jobs?x=1', 'acme.com'],
    ['  ACME.COM  ', 'acme.com'],
    ['https://careers.acme.com', 'careers.acme.com'],
  ])('%s → %s', (input, domain) => expect(toDomain(input)).toBe(domain));

  it.each([[null], [undefined], [''], ['not a domain'], ['localhost'], ['http://']])('%s → null', (input) =>
    expect(toDomain(input)).toBeNull(),
  );
});

describe('toUrl', () => {
  it('keeps http(s) URLs and drops anything else', () => {
    expect(toUrl('https://jobs.acme.com/o/1?id=2')).toBe('https://jobs.acme.com/o/1?id=2');
    expect(toUrl(' http://acme.com ')).toBe('http://acme.com');
    expect(toUrl('ftp://acme.com')).toBeNull();
    expect(toUrl('javascript:alert(1)')).toBeNull();
    expect(toUrl('/relative')).toBeNull();
    expect(toUrl(null)).toBeNull();
  });
});

describe('toIsoUtc', () => {
  it.each([
    ['2026-11-22T07:14:26Z', '2026-11-22T07:14:26.000Z'],
    ['2026-11-22T06:44:36.000Z', '2026-11-22T06:44:36.000Z'],
    ['2026-11-22T08:00:00+01:00', '2026-11-22T07:00:00.000Z'],
    ['2026-11-22T07:00:00', '2026-11-22T07:00:00.000Z'],
    ['2026-11-22', '2026-11-22T00:00:00.000Z'],
    ['Sun, 22 Nov 2026 05:58:40 GMT', '2026-11-22T05:58:40.000Z'],
  ])('%s → %s', (input, iso) => expect(toIsoUtc(input)).toBe(iso));

  it('reads epoch seconds and milliseconds', () => {
    expect(toIsoUtc(1795327350, 's')).toBe('2026-11-22T06:02:30.000Z');
    expect(toIsoUtc(1795327350000)).toBe('2026-11-22T06:02:30.000Z');
  });

  it.each([[null], [undefined], [''], ['yesterday'], ['2026-13-45']])('%s → null', (input) =>
    expect(toIsoUtc(input)).toBeNull(),
  );

  it('is null for a number beyond what a date can hold, instead of throwing', () => {
    expect(toIsoUtc(9e15)).toBeNull();
    expect(toIsoUtc(1e13, 's')).toBeNull();
    expect(toIsoUtc(-9e15)).toBeNull();
  });
});

describe('vocabulary helpers', () => {
  it('normalizes keys', () => {
    expect(vocabKey('Full-time')).toBe('full time');
    expect(vocabKey('FULL_TIME')).toBe('full time');
    expect(vocabKey(' Mid-Senior level ')).toBe('mid senior level');
    expect(vocabKey(null)).toBe('');
  });

  it('keeps allowed enum values only', () => {
    expect(enumOrNull('a', ['a', 'b'] as const)).toBe('a');
    expect(enumOrNull('c', ['a', 'b'] as const)).toBeNull();
    expect(enumOrNull(null, ['a'] as const)).toBeNull();
  });
});
