import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderE, ProviderEAdapter } from './provider-e.adapter.js';
import type { ResumablePaging } from './provider-adapter.js';
import { fixture, serveJson, WithStatus, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, daysAgo, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('e.json');
const [uk, denver, boston] = page.response.docs;

describe('mapProviderE', () => {
  it('marks a lower-cased title, a rounded salary and a cut snippet as lossy', () => {
    const r = mapProviderE(
      { ...uk, title: 'data engineer', salary: '£45K - £55K', snippet: 'We are hiring a data engineer to build…' },
      SEEN_AT,
    )!;
    expect(r.lossy).toEqual(['title', 'salary', 'description']);
    expect(
      mapProviderE(
        { ...uk, title: 'Data Engineer', salary: '£45,500 - £55,000 a year', snippet: 'A short description.' },
        SEEN_AT,
      )!.lossy,
    ).toBeUndefined();
  });

  it('maps UK, RFC 1123 dates and the snippet', () => {
    const r = mapProviderE(uk, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_e',
      provider_job_id: '0753dc298ebf7761',
      title: 'Sales Engineer (Enterprise)',
      company: { name: 'COPPERLAB MANUFACTURING', domain: null },
      location: { city: 'Manchester', region: 'England', country_code: 'GB', remote: false },
      employment_type: null,
      seniority: null,
      salary: null,
      posted_at: '2026-11-22T05:58:40.000Z',
    });
    expect(r.description).toMatch(/^At Copperlab Manufacturing, .*…$/);
  });

  it('parses short salaries', () => {
    expect(mapProviderE(denver, SEEN_AT)!.salary).toEqual({
      min: 94000,
      max: 124000,
      currency: 'USD',
      period: 'year',
      origin: 'declared',
    });
    expect(mapProviderE(boston, SEEN_AT)!.salary).toEqual({
      min: 70.5,
      max: 89.5,
      currency: 'USD',
      period: 'hour',
      origin: 'declared',
    });
    expect(mapProviderE(boston, SEEN_AT)!.location.remote).toBe(true);
    expect(mapProviderE({ ...boston, salary: 'R$12K/mo' }, SEEN_AT)!.salary).toMatchObject({
      min: 12000,
      currency: 'BRL',
      period: 'month',
    });
    expect(mapProviderE({ ...boston, jobkey: '' }, SEEN_AT)).toBeNull();
  });
});

describe('ProviderEAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('sends our filters and pages by start until want', async () => {
    server = await serveJson((req) => ({
      ...page,
      response: { ...page.response, numFound: 100, start: Number(req.url.searchParams.get('start')) },
    }));
    const records = await new ProviderEAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 5,
      signal: signal(),
    });
    expect(records).toHaveLength(5);
    expect(server.requests.map((r) => r.url.searchParams.get('start'))).toEqual(['0', '3']);
    const q = server.requests[0]!.url;
    expect(q.pathname).toBe('/provider_e/select');
    expect(Object.fromEntries(q.searchParams)).toMatchObject({
      q: 'engineer OR developer',
      fq_country: 'UK',
      fq_domain: 'acme.com',
      fq_remote: 'true',
      rows: '5',
    });
    expect(daysAgo(q.searchParams.get('fq_since')!)).toBe(7);
  });

  it('matches everything without keywords and stops at numFound', async () => {
    server = await serveJson(() => page);
    const records = await new ProviderEAdapter(server.baseUrl).search({
      filters: UNPUSHABLE_FILTERS,
      want: 3,
      signal: signal(),
    });
    expect(records).toHaveLength(3);
    expect(Object.fromEntries(server.requests[0]!.url.searchParams)).toEqual({ q: '*:*', start: '0', rows: '3' });
  });

  it('reads listings by id: those still shown come back, a 404 is a listing no longer shown', async () => {
    server = await serveJson((req) => {
      const jobkey = decodeURIComponent(req.url.pathname.replace('/provider_e/job/', ''));
      const doc = page.response.docs.find((d: { jobkey: string }) => d.jobkey === jobkey);
      return doc
        ? { responseHeader: { status: 0 }, response: { numFound: 1, start: 0, docs: [doc] } }
        : new WithStatus(404, { error: { msg: 'not found', code: 404 } });
    });
    const adapter = new ProviderEAdapter(server.baseUrl);
    expect(adapter.readsListings).toBe(true);
    const records = await adapter.search({
      filters: ALL_FILTERS,
      want: 3,
      signal: signal(),
      listingIds: [uk.jobkey, 'gone-1', boston.jobkey],
    });
    expect(records.map((r) => r.provider_job_id).sort()).toEqual([uk.jobkey, boston.jobkey].sort());
    expect(server.requests.every((r) => r.url.pathname.startsWith('/provider_e/job/'))).toBe(true);
    expect(server.requests).toHaveLength(3);
  });

  it('counts a listing shown but unreadable as skipped, not as gone', async () => {
    server = await serveJson((req) => {
      const jobkey = decodeURIComponent(req.url.pathname.replace('/provider_e/job/', ''));
      if (jobkey === 'gone-1') return new WithStatus(404, { error: { msg: 'not found', code: 404 } });
      const doc = jobkey === uk.jobkey ? uk : { ...boston, title: '   ' };
      return { responseHeader: { status: 0 }, response: { numFound: 1, start: 0, docs: [doc] } };
    });
    const paging: ResumablePaging = { start: null };
    const records = await new ProviderEAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 3,
      signal: signal(),
      paging,
      listingIds: [uk.jobkey, 'gone-1', boston.jobkey],
    });
    expect(records.map((r) => r.provider_job_id)).toEqual([uk.jobkey]);
    expect(paging.skipped).toBe(1);
  });

  it('fails a read by id on any answer but the listing or a 404', async () => {
    server = await serveJson(() => new WithStatus(503, {}));
    await expect(
      new ProviderEAdapter(server.baseUrl).search({ filters: {}, want: 1, signal: signal(), listingIds: ['x'] }),
    ).rejects.toThrow(/503/);
  });
});
