import type { NormalizedProviderRecord } from '@jobs/contracts';
import {
  DESCRIPTION,
  OTHER_DESCRIPTION,
  pairScore,
  providerE,
  record,
  sameOpening,
} from './canonical-index.spec-helper.js';

describe('the same opening seen by different providers is merged', () => {
  it.each<[string, Partial<NormalizedProviderRecord>]>([
    [
      'provider_b: "(m/w/d)", HTML-cleaned text, date only',
      {
        provider: 'provider_b',
        title: 'Senior Supply Chain Analyst (m/w/d)',
        seniority: null,
        posted_at: '2026-11-03T00:00:00.000Z',
        description: DESCRIPTION.replace(/\. /g, '.\n'),
      },
    ],
    [
      'provider_f: "SR." upper-case headline, unknown remote',
      {
        provider: 'provider_f',
        title: 'SR. SUPPLY CHAIN ANALYST',
        location: { city: 'Turin', region: 'Piedmont', country_code: 'IT', remote: null },
      },
    ],
    [
      'provider_c: no description, estimated salary that disagrees',
      {
        provider: 'provider_c',
        description: null,
        salary: { min: 90000, max: 99000, currency: 'EUR', period: 'year', origin: 'inferred' },
      },
    ],
    [
      'provider_d: extra headings in the body',
      {
        provider: 'provider_d',
        description: `About the role\n\n${DESCRIPTION.replace('We are looking', 'What we offer\n\n- We are looking')}`,
      },
    ],
    ['provider_a: lossy level (lead shown as senior)', { provider: 'provider_c', seniority: 'lead' }],
    [
      'a later description update the lagging provider does not show yet',
      { provider: 'provider_d', description: `${DESCRIPTION} This role now includes a yearly bonus.` },
    ],
    [
      'a raised salary that still overlaps',
      {
        provider: 'own_index',
        salary: { min: 46000, max: 56000, currency: 'EUR', period: 'year', origin: 'declared' },
      },
    ],
    [
      'a tracking-wrapped apply URL',
      {
        provider: 'provider_b',
        apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=be967d&utm_source=board',
      },
    ],
  ])('%s', (_, overrides) => {
    expect(sameOpening(record(), record(overrides))).toBe(true);
  });

  it('provider_e (name only, snippet, no seniority) meets its domain-bearing twin', () => {
    expect(sameOpening(record(), providerE())).toBe(true);
    expect(sameOpening(providerE(), record())).toBe(true);
  });

  it('provider_e meets its twin even without apply URLs, by name, title, place and posting time', () => {
    expect(sameOpening(record({ apply_url: null }), providerE({ apply_url: null }))).toBe(true);
  });

  it('provider_c (no description) meets provider_e (snippet only) without apply URLs', () => {
    expect(
      sameOpening(
        record({ provider: 'provider_c', description: null, apply_url: null }),
        providerE({ apply_url: null }),
      ),
    ).toBe(true);
  });
});

describe('different openings that look alike stay apart', () => {
  it.each<[string, Partial<NormalizedProviderRecord>]>([
    [
      'one ad posted for two cities at once',
      {
        location: { city: 'Milan', region: 'Lombardy', country_code: 'IT', remote: false },
        description: DESCRIPTION.replace(/Turin/g, 'Milan'),
        apply_url: null,
      },
    ],
    [
      'another apply URL, posted days earlier',
      {
        apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=0c41aa',
        posted_at: '2026-10-30T08:00:00.000Z',
      },
    ],
    [
      'same company and title, another domain',
      { company: { name: 'Apexstack', domain: 'apexstack.it' }, apply_url: null },
    ],
    [
      'another country',
      { location: { city: 'Turin', region: 'Piedmont', country_code: 'FR', remote: false }, apply_url: null },
    ],
  ])('%s', (_, overrides) => {
    expect(sameOpening(record({ provider: 'provider_b' }), record(overrides))).toBe(false);
  });

  it('same company, title and city, posted weeks apart, other description (no apply URLs)', () => {
    const a = record({ apply_url: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      posted_at: '2026-10-12T16:40:00.000Z',
      description: OTHER_DESCRIPTION,
      salary: null,
    });
    expect(sameOpening(a, b)).toBe(false);
  });

  it('same company, title, city and day, but a different description and contract type (no apply URLs)', () => {
    const a = record({ apply_url: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      description: OTHER_DESCRIPTION,
      employment_type: 'contract',
      posted_at: '2026-11-03T00:00:00.000Z',
    });
    expect(sameOpening(a, b)).toBe(false);
  });

  it('two listings of one provider are two openings unless their apply URL says otherwise', () => {
    const a = record({ apply_url: null });
    const b = record({ apply_url: null, posted_at: '2026-11-03T15:00:00.000Z' });
    expect(sameOpening(a, b)).toBe(false);
    // a re-listing under a new id with the same apply URL is the same opening
    expect(sameOpening(record(), record())).toBe(true);
  });

  it('a junior and a senior opening with one title are not merged on weak evidence', () => {
    const a = record({ apply_url: null, description: null, posted_at: null });
    const b = record({
      provider: 'provider_b',
      apply_url: null,
      description: null,
      posted_at: null,
      seniority: 'junior',
      city: undefined,
    } as Partial<NormalizedProviderRecord>);
    const explain: Record<string, number> = {};
    pairScore(b, a, explain);
    expect(explain['seniority']).toBeLessThan(0);
  });
});
