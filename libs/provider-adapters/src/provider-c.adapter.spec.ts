import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderC, ProviderCAdapter } from './provider-c.adapter.js';
import { fixture, serveJson, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('c.json');
const [intern, manchester, remote] = page.jobs;

describe('mapProviderC', () => {
  it('marks EXECUTIVE, an estimated comp and a hybrid workplace as lossy', () => {
    expect(mapProviderC({ ...manchester, seniority: 'EXECUTIVE', workplaceType: 'HYBRID' }, SEEN_AT)!.lossy).toEqual([
      'location.remote',
      'seniority',
    ]);
    expect(
      mapProviderC(
        {
          ...manchester,
          seniority: 'LEAD',
          workplaceType: 'ON_SITE',
          comp: { from: 1, to: 2, currency: 'GBP', unit: 'YEAR', estimated: true },
        },
        SEEN_AT,
      )!.lossy,
    ).toEqual(['salary']);
    expect(
      mapProviderC({ ...manchester, seniority: 'LEAD', workplaceType: 'REMOTE', comp: null }, SEEN_AT)!.lossy,
    ).toBeUndefined();
  });

  it('maps ISO3 countries, epoch seconds and declared comp', () => {
    const r = mapProviderC(manchester, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_c',
      provider_job_id: 'd1227f2b-ae52-4403-ad40-227f92aec7dd',
      title: 'Sales Engineer (Enterprise)',
      company: { name: 'Copperlab Manufacturing', domain: 'copperlabmanufacturing.com' },
      location: { city: 'Manchester', region: 'England', country_code: 'GB', remote: false },
      employment_type: 'full_time',
      seniority: 'mid',
      salary: { min: 59000, max: 74000, currency: 'GBP', period: 'year', origin: 'declared' },
      description: null,
      posted_at: '2026-11-22T05:58:40.000Z',
    });
  });

  it('marks estimated comp as inferred', () => {
    const r = mapProviderC(intern, SEEN_AT)!;
    expect(r.salary).toEqual({ min: 280000, max: 340000, currency: 'NOK', period: 'year', origin: 'inferred' });
    expect(r).toMatchObject({ employment_type: 'internship', seniority: 'intern', location: { country_code: 'NO' } });
  });

  it('maps workplace types and executive levels', () => {
    expect(mapProviderC(remote, SEEN_AT)!.location).toEqual({
      city: null,
      region: null,
      country_code: 'DE',
      remote: true,
    });
    expect(mapProviderC({ ...remote, workplaceType: null }, SEEN_AT)!.location.remote).toBeNull();
    expect(mapProviderC({ ...remote, workplaceType: 'ON_SITE' }, SEEN_AT)!.location.remote).toBe(false);
    expect(mapProviderC({ ...remote, seniority: 'EXECUTIVE' }, SEEN_AT)!.seniority).toBe('vp');
    expect(
      mapProviderC({ ...remote, comp: { from: 40, to: 50, currency: 'EUR', unit: 'HOUR', estimated: false } }, SEEN_AT)!
        .salary!.period,
    ).toBe('hour');
    expect(mapProviderC({ ...remote, jobId: 5 }, SEEN_AT)).toBeNull();
  });
});

describe('ProviderCAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('sends our filters and follows page tokens until want', async () => {
    server = await serveJson((req) => ({
      ...page,
      nextPageToken: `t${Number(req.url.searchParams.get('pageToken')?.slice(1) ?? 0) + 1}`,
    }));
    const records = await new ProviderCAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 7,
      signal: signal(),
    });
    expect(records).toHaveLength(7);
    expect(server.requests.map((r) => r.url.searchParams.get('pageToken'))).toEqual([null, 't1', 't2']);
    const q = server.requests[0]!.url;
    expect(q.pathname).toBe('/provider_c/v1/search');
    expect(q.searchParams.getAll('query')).toEqual(['engineer', 'developer']);
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      countryCode: 'GBR',
      companyDomain: 'acme.com',
      remote: 'true',
      pageSize: '7',
    });
    const after = Number(q.searchParams.get('postedAfter'));
    expect(Math.round((Date.now() / 1000 - after) / 86_400)).toBe(7);
    // the same postedAfter on every page: tokens are bound to the query
    expect(new Set(server.requests.map((r) => r.url.searchParams.get('postedAfter'))).size).toBe(1);
  });

  it('stops without a next token and leaves filters it cannot apply', async () => {
    server = await serveJson(() => ({ ...page, nextPageToken: null }));
    const records = await new ProviderCAdapter(server.baseUrl).search({
      filters: UNPUSHABLE_FILTERS,
      want: 50,
      signal: signal(),
    });
    expect(records).toHaveLength(3);
    expect([...server.requests[0]!.url.searchParams.keys()]).toEqual(['pageSize']);
  });
});
