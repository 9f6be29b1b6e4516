import {
  CountryCodeSchema,
  CurrencyCodeSchema,
  DateTimeSchema,
  DomainSchema,
  ProbabilitySchema,
  UrlSchema,
} from './common.schema.js';

describe('DateTimeSchema', () => {
  it.each(['2026-10-01T12:00:00Z', '2026-10-01T12:00:00.123Z'])('accepts UTC %s', (value) => {
    expect(DateTimeSchema.safeParse(value).success).toBe(true);
  });
  it.each(['2026-10-01T12:00:00+01:00', '2026-10-01', 'yesterday', '2026-13-01T00:00:00Z'])('rejects %s', (value) => {
    expect(DateTimeSchema.safeParse(value).success).toBe(false);
  });
});

describe('UrlSchema', () => {
  it.each(['https://example.com/a?b=1', 'http://127.0.0.1:3000/hook'])('accepts %s', (value) => {
    expect(UrlSchema.safeParse(value).success).toBe(true);
  });
  it.each(['javascript:alert(1)', 'ftp://example.com/x', 'example.com', ''])('rejects %s', (value) => {
    expect(UrlSchema.safeParse(value).success).toBe(false);
  });
});

describe('CountryCodeSchema', () => {
  it('accepts GB', () => expect(CountryCodeSchema.parse('GB')).toBe('GB'));
  it.each(['gb', 'GBR', 'G', 'UK', 'G1'])('rejects %s', (value) => {
    expect(CountryCodeSchema.safeParse(value).success).toBe(false);
  });
  it('tells the caller to use GB for UK', () => {
    expect(CountryCodeSchema.safeParse('UK').error?.issues[0]?.message).toMatch(/GB/);
  });
});

describe('CurrencyCodeSchema', () => {
  it('accepts EUR and rejects eur and EURO', () => {
    expect(CurrencyCodeSchema.safeParse('EUR').success).toBe(true);
    expect(CurrencyCodeSchema.safeParse('eur').success).toBe(false);
    expect(CurrencyCodeSchema.safeParse('EURO').success).toBe(false);
  });
});

describe('DomainSchema', () => {
  it('trims and lower-cases', () => expect(DomainSchema.parse(' Acme.Example ')).toBe('acme.example'));
  it('accepts sub-domains', () => expect(DomainSchema.parse('jobs.acme.co.uk')).toBe('jobs.acme.co.uk'));
  it.each(['https://acme.example', 'acme.example/jobs', 'acme', 'acme.example:8080', '-acme.example', ''])(
    'rejects %s',
    (value) => expect(DomainSchema.safeParse(value).success).toBe(false),
  );
});

describe('ProbabilitySchema', () => {
  it('bounds 0..1', () => {
    expect(ProbabilitySchema.safeParse(0).success).toBe(true);
    expect(ProbabilitySchema.safeParse(1).success).toBe(true);
    expect(ProbabilitySchema.safeParse(-0.01).success).toBe(false);
    expect(ProbabilitySchema.safeParse(1.01).success).toBe(false);
  });
});
