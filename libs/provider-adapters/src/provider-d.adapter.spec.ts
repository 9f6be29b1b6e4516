import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderD, parsePlace, ProviderDAdapter } from './provider-d.adapter.js';
import { fixture, serveJson, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('d.json');
const [remote, austin, bergen] = page.data.items;

describe('mapProviderD', () => {
  it('marks a place whose one part may be a city or a region, and a date without time, as lossy', () => {
    expect(mapProviderD({ ...bergen, place: 'Vestland, Norway', published: '2026-11-03' }, SEEN_AT)!.lossy).toEqual([
      'location',
      'posted_at',
    ]);
    expect(
      mapProviderD({ ...bergen, place: 'Remote, Norway', published: '2026-11-03T10:00:00Z' }, SEEN_AT)!.lossy,
    ).toBeUndefined();
    expect(
      mapProviderD({ ...bergen, place: 'Bergen, Vestland, Norway', published: '2026-11-03T10:00:00Z' }, SEEN_AT)!.lossy,
    ).toBeUndefined();
  });

  it('strips the " - Remote" suffix and parses pay and place', () => {
    const r = mapProviderD(remote, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_d',
      provider_job_id: 'd_jmngxn',
      title: 'Senior Frontend Engineer, Rust',
      company: { name: 'Willowway Networks', domain: 'willowwaynetworks.com' },
      location: { city: 'Gurugram', region: 'Haryana', country_code: 'IN', remote: true },
      employment_type: 'full_time',
      seniority: 'senior',
      salary: { min: 2310000, max: 2860000, currency: 'INR', period: 'year', origin: 'declared' },
      posted_at: '2026-11-22T00:00:00.000Z',
      apply_url: 'https://willowwaynetworks.com/careers/a2fb42',
    });
  });

  it('turns the Markdown body into plain text', () => {
    const d = mapProviderD(remote, SEEN_AT)!.description!;
    expect(d).not.toContain('**');
    expect(d.startsWith('About the role\n\nJoin Willowway Networks')).toBe(true);
    expect(d).toContain('What we offer\n\n- We are looking for someone');
  });

  it('maps on-site items, types and levels', () => {
    expect(mapProviderD(austin, SEEN_AT)).toMatchObject({
      title: 'Senior QA Engineer, C++',
      location: { city: 'Austin', region: 'TX', country_code: 'US', remote: false },
      employment_type: 'contract',
      salary: { min: 127000, max: 180000, currency: 'USD', period: 'year' },
    });
    expect(mapProviderD(bergen, SEEN_AT)).toMatchObject({
      location: { country_code: 'NO' },
      seniority: 'intern',
      employment_type: 'internship',
      salary: null,
    });
    const level = (seniority: string) => mapProviderD({ ...bergen, seniority }, SEEN_AT)!.seniority;
    expect(['Junior', 'Mid-level', 'Lead', 'Director', 'VP', 'C-level'].map(level)).toEqual([
      'junior',
      'mid',
      'lead',
      'director',
      'vp',
      'c_level',
    ]);
    expect(mapProviderD({ ...bergen, is_remote: null }, SEEN_AT)!.location.remote).toBeNull();
    expect(mapProviderD({ ...bergen, ref: null }, SEEN_AT)).toBeNull();
  });
});

describe('parsePlace', () => {
  it.each([
    ['Gurugram, Haryana, India', { city: 'Gurugram', region: 'Haryana', country_code: 'IN' }],
    ['London, England, United Kingdom', { city: 'London', region: 'England', country_code: 'GB' }],
    ['Remote, Germany', { city: null, region: null, country_code: 'DE' }],
    ['Remote, Bavaria, Germany', { city: null, region: 'Bavaria', country_code: 'DE' }],
    ['Berlin, Germany', { city: 'Berlin', region: null, country_code: 'DE' }],
    ['Germany', { city: null, region: null, country_code: 'DE' }],
    [null, { city: null, region: null, country_code: null }],
    ['Springfield, Nowhere', { city: 'Springfield', region: 'Nowhere', country_code: null }],
  ])('%s', (place, expected) => expect(parsePlace(place)).toEqual(expected));
});

describe('ProviderDAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('sends our filters and pages (0-based) until want', async () => {
    server = await serveJson((req) => ({
      ...page,
      data: { ...page.data, page: Number(req.url.searchParams.get('page')), pages: 10 },
    }));
    const records = await new ProviderDAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 5,
      signal: signal(),
    });
    expect(records).toHaveLength(5);
    expect(server.requests.map((r) => r.url.searchParams.get('page'))).toEqual(['0', '1']);
    const q = server.requests[0]!.url;
    expect(q.pathname).toBe('/provider_d/api/v1/feed');
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      search: 'engineer;developer',
      country: 'United Kingdom',
      employer: 'acme.com',
      remote: 'yes',
      page_size: '5',
    });
    expect(q.searchParams.get('published_since')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('never asks for more than 25 a page and stops on the last page', async () => {
    server = await serveJson(() => ({ ...page, data: { ...page.data, page: 0, pages: 1 } }));
    const records = await new ProviderDAdapter(server.baseUrl).search({
      filters: UNPUSHABLE_FILTERS,
      want: 100,
      signal: signal(),
    });
    expect(records).toHaveLength(3);
    expect(Object.fromEntries(server.requests[0]!.url.searchParams)).toEqual({ page: '0', page_size: '25' });
  });
});
