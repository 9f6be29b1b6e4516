import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderA, ProviderAAdapter } from './provider-a.adapter.js';
import { fixture, serveJson, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, daysAgo, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('a.json');
const [us, de, uk] = page.results;

describe('mapProviderA', () => {
  it('marks the levels shared by two seniorities as lossy, and only those', () => {
    const lossy = (seniority_level: string | null) => mapProviderA({ ...us, seniority_level }, SEEN_AT)!.lossy;
    expect(lossy('Mid-Senior level')).toEqual(['seniority']);
    expect(lossy('Executive')).toEqual(['seniority']);
    for (const exact of ['Internship', 'Entry level', 'Associate', 'Director', null])
      expect(lossy(exact)).toBeUndefined();
  });

  it('maps a full item', () => {
    const r = mapProviderA(us, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_a',
      provider_job_id: 'A-0859997371',
      title: 'Frontend Engineer',
      company: { name: 'Brightgate Analytics LLC', domain: 'brightgateanalytics.com' },
      location: { city: 'San Francisco', region: 'CA', country_code: 'US', remote: false },
      employment_type: 'full_time',
      seniority: 'mid',
      job_family: null,
      salary: { min: 107000, max: 144000, currency: 'USD', period: 'year', origin: 'declared' },
      url: 'https://jobs.brightgateanalytics.com/o/frontend-engineer?id=936596',
      apply_url: 'https://jobs.brightgateanalytics.com/o/frontend-engineer?id=936596',
      posted_at: '2026-11-22T07:14:26.000Z',
      seen_at: SEEN_AT,
    });
    expect(r.description).toMatch(/^Join Brightgate Analytics as a Frontend Engineer/);
  });

  it('maps UK to GB and a missing salary to null', () => {
    expect(mapProviderA(uk, SEEN_AT)!.location.country_code).toBe('GB');
    expect(mapProviderA(uk, SEEN_AT)!.salary).toEqual({
      min: 59000,
      max: 74000,
      currency: 'GBP',
      period: 'year',
      origin: 'declared',
    });
    expect(mapProviderA(de, SEEN_AT)!.salary).toBeNull();
    expect(mapProviderA(de, SEEN_AT)!.company.domain).toBe('jadegate.de');
  });

  it('maps LinkedIn levels (lossy ones to the lower level) and monthly/hourly periods', () => {
    const level = (seniority_level: string | null) => mapProviderA({ ...us, seniority_level }, SEEN_AT)!.seniority;
    expect([
      level('Internship'),
      level('Entry level'),
      level('Associate'),
      level('Mid-Senior level'),
      level('Director'),
      level('Executive'),
      level(null),
      level('Guru'),
    ]).toEqual(['intern', 'junior', 'mid', 'senior', 'director', 'vp', null, null]);
    expect(
      mapProviderA({ ...us, salary: { min: 50, max: 60, currency: 'usd', period: 'hourly' } }, SEEN_AT)!.salary,
    ).toMatchObject({ currency: 'USD', period: 'hour' });
    expect(
      mapProviderA({ ...us, salary: { min: 5000, max: null, currency: 'BRL', period: 'monthly' } }, SEEN_AT)!.salary,
    ).toMatchObject({ min: 5000, max: null, period: 'month' });
    expect(mapProviderA({ ...us, employment: 'Part-time' }, SEEN_AT)!.employment_type).toBe('part_time');
  });

  it('skips items it cannot read', () => {
    expect(mapProviderA({ ...us, id: undefined }, SEEN_AT)).toBeNull();
    expect(mapProviderA({ ...us, job_title: '' }, SEEN_AT)).toBeNull();
    expect(mapProviderA('nope', SEEN_AT)).toBeNull();
  });
});

describe('ProviderAAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('sends our filters and pages until want', async () => {
    server = await serveJson((req) => {
      const n = Number(req.url.searchParams.get('page'));
      return { ...page, page: n, next_page: n + 1 };
    });
    const records = await new ProviderAAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 5,
      signal: signal(),
    });
    expect(records).toHaveLength(5);
    expect(server.requests).toHaveLength(2);
    const q = server.requests[0]!.url;
    expect(q.pathname).toBe('/provider_a/v2/jobs');
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      q: 'engineer,developer',
      country: 'UK',
      company: 'acme.com',
      remote: 'true',
      page: '1',
      per_page: '5',
    });
    expect(daysAgo(q.searchParams.get('posted_after')!)).toBe(7);
    expect(server.requests[1]!.url.searchParams.get('page')).toBe('2');
  });

  it('asks for several companies in one listing (a comma list of domains)', async () => {
    server = await serveJson(() => ({ ...page, next_page: null }));
    await new ProviderAAdapter(server.baseUrl).search({
      filters: { company_domain_or: ['acme.com', 'globex.com'] },
      want: 50,
      signal: signal(),
    });
    expect(server.requests[0]!.url.searchParams.get('company')).toBe('acme.com,globex.com');
  });

  it('stops on the last page and leaves filters it cannot apply', async () => {
    server = await serveJson(() => ({ ...page, next_page: null }));
    const records = await new ProviderAAdapter(server.baseUrl).search({
      filters: UNPUSHABLE_FILTERS,
      want: 50,
      signal: signal(),
    });
    expect(records.map((r) => r.provider_job_id)).toEqual(['A-0859997371', 'A-3343135136', 'A-2129315324']);
    expect(server.requests).toHaveLength(1);
    expect([...server.requests[0]!.url.searchParams.keys()].sort()).toEqual(['page', 'per_page']);
  });

  it('rejects a page of an unexpected shape', async () => {
    server = await serveJson(() => ({ error: { code: 'X' } }));
    await expect(
      new ProviderAAdapter(server.baseUrl).search({ filters: {}, want: 5, signal: signal() }),
    ).rejects.toThrow('unexpected shape');
  });
});
