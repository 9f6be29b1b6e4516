import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderB, ProviderBAdapter } from './provider-b.adapter.js';
import { fixture, serveJson, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, daysAgo, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('b.json');
const [hamburg, remote, london] = page.jobs;

describe('mapProviderB', () => {
  it('marks a gender note in the title, an unsaid remote and a date without time as lossy', () => {
    const r = mapProviderB(
      { ...london, title: 'Data Engineer (m/w/d)', is_remote: false, posted_date: '2026-11-03' },
      SEEN_AT,
    )!;
    expect(r.lossy).toEqual(['title', 'location.remote', 'posted_at']);
    expect(
      mapProviderB(
        { ...london, title: 'Data Engineer', is_remote: true, posted_date: '2026-11-03T10:00:00Z' },
        SEEN_AT,
      )!.lossy,
    ).toBeUndefined();
  });

  it('maps a UK item with salary text', () => {
    const r = mapProviderB(london, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_b',
      provider_job_id: '11957808616',
      title: 'Technical Support Engineer',
      company: { name: 'Pineworks', domain: 'pineworks.com' },
      location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
      employment_type: 'full_time',
      seniority: null,
      salary: { min: 28000, max: 34000, currency: 'GBP', period: 'year', origin: 'declared' },
      posted_at: '2026-11-22T00:00:00.000Z',
      apply_url: 'https://jobs.pineworks.com/o/technical-support-engineer?id=9674a6',
    });
  });

  it('turns the HTML description into plain text', () => {
    const d = mapProviderB(hamburg, SEEN_AT)!.description!;
    expect(d).not.toMatch(/[<>]/);
    expect(d.split('\n\n')[0]).toBe(
      'Join Blueforge as a Machine Learning Engineer (Computer Vision) and help us grow.',
    );
    expect(d.split('\n\n')).toHaveLength(5);
  });

  it('maps country names, www. domains, remote and keeps the title as sent', () => {
    const r = mapProviderB(remote, SEEN_AT)!;
    expect(r.location).toEqual({ city: null, region: null, country_code: 'DE', remote: true });
    expect(r.company.domain).toBe('ironlineconsulting.com');
    expect(r.title).toBe('Senior Mobile Engineer (m/f/d)');
    expect(r.salary).toBeNull();
    expect(
      mapProviderB({ ...london, employment_type: 'Contractor', salary_text: 'From $25 an hour' }, SEEN_AT),
    ).toMatchObject({
      employment_type: 'contract',
      salary: { min: 25, max: null, currency: 'USD', period: 'hour' },
    });
    expect(mapProviderB({ ...london, salary_text: 'Competitive' }, SEEN_AT)!.salary).toBeNull();
  });

  it('skips items it cannot read', () => {
    expect(mapProviderB({ ...london, company_name: null }, SEEN_AT)).toBeNull();
  });
});

describe('ProviderBAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('sends our filters and pages by offset until want', async () => {
    server = await serveJson((req) => ({
      ...page,
      total_count: 100,
      offset: Number(req.url.searchParams.get('offset')),
    }));
    const records = await new ProviderBAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 4,
      signal: signal(),
    });
    expect(records).toHaveLength(4);
    expect(server.requests.map((r) => r.url.searchParams.get('offset'))).toEqual(['0', '3']);
    const q = server.requests[0]!.url;
    expect(q.pathname).toBe('/provider_b/api/search');
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      keywords: 'engineer|developer',
      location: 'United Kingdom',
      employer_domain: 'acme.com',
      work_mode: 'remote',
      limit: '4',
    });
    expect(q.searchParams.get('from_date')).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(daysAgo(q.searchParams.get('from_date')!)).toBeGreaterThanOrEqual(7);
  });

  it('stops at total_count and leaves filters it cannot apply', async () => {
    server = await serveJson(() => ({ ...page, total_count: 3 }));
    const records = await new ProviderBAdapter(server.baseUrl).search({
      filters: { ...UNPUSHABLE_FILTERS, remote: false },
      want: 50,
      signal: signal(),
    });
    expect(records).toHaveLength(3);
    expect(server.requests).toHaveLength(1);
    expect([...server.requests[0]!.url.searchParams.keys()].sort()).toEqual(['limit', 'offset', 'work_mode']);
    expect(server.requests[0]!.url.searchParams.get('work_mode')).toBe('onsite');
  });
});
