import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapProviderF, ProviderFAdapter } from './provider-f.adapter.js';
import { fixture, serveJson, type FixtureServer } from './testing/fixture-server.js';
import { ALL_FILTERS, SEEN_AT, signal, UNPUSHABLE_FILTERS } from './testing/filters.js';

const page = fixture('f.json');
const [frankfurt, hamburg, freelance] = page.data.postings;

describe('mapProviderF', () => {
  it('marks a rewritten headline and the coarse levels as lossy', () => {
    expect(mapProviderF({ ...frankfurt, headline: 'Sr. Data Engineer', level: 'EXEC' }, SEEN_AT)!.lossy).toEqual([
      'title',
      'seniority',
    ]);
    expect(mapProviderF({ ...frankfurt, headline: 'DATA ENGINEER', level: 'ENTRY' }, SEEN_AT)!.lossy).toEqual([
      'title',
      'seniority',
    ]);
    expect(
      mapProviderF({ ...frankfurt, headline: 'Senior Data Engineer', level: 'LEAD' }, SEEN_AT)!.lossy,
    ).toBeUndefined();
  });

  it('maps Deutschland, string amounts and HTML bodies', () => {
    const r = mapProviderF(hamburg, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(r)).toEqual(r);
    expect(r).toMatchObject({
      provider: 'provider_f',
      provider_job_id: '3775635886',
      title: 'Cloud Engineer',
      company: { name: 'Ironspring Energy', domain: 'ironspringenergy.com' },
      location: { city: 'Hamburg', region: 'Hamburg', country_code: 'DE', remote: true },
      employment_type: 'full_time',
      seniority: 'mid',
      salary: { min: 64000, max: 82000, currency: 'EUR', period: 'year', origin: 'declared' },
      posted_at: '2026-11-22T03:07:25.000Z',
      apply_url: 'https://ironspringenergy.com/careers/7bcca8',
    });
    expect(r.description).toMatch(/^About the role\n\nAt Ironspring Energy/);
    expect(r.description).toContain('\n- This is a fully remote position.');
  });

  it('keeps an unknown remote_ok unknown and maps contracts and levels', () => {
    expect(mapProviderF(frankfurt, SEEN_AT)!.location.remote).toBeNull();
    expect(mapProviderF({ ...frankfurt, remote_ok: false }, SEEN_AT)!.location.remote).toBe(false);
    expect(mapProviderF(freelance, SEEN_AT)).toMatchObject({
      employment_type: 'contract',
      seniority: 'senior',
      salary: null,
    });
    const level = (l: string | null) => mapProviderF({ ...frankfurt, level: l }, SEEN_AT)!.seniority;
    expect(['ENTRY', 'MID', 'SENIOR', 'LEAD', 'EXEC', null].map(level)).toEqual([
      'junior',
      'mid',
      'senior',
      'lead',
      'director',
      null,
    ]);
    expect(
      mapProviderF({ ...frankfurt, geo: { city: 'Zurich', admin1: 'Zurich', country: 'Schweiz' } }, SEEN_AT)!.location
        .country_code,
    ).toBe('CH');
    expect(
      mapProviderF(
        {
          ...frankfurt,
          compensation: { amount_min: null, amount_max: '30.50', currency: 'GBP', interval: 'per_hour' },
        },
        SEEN_AT,
      )!.salary,
    ).toEqual({
      min: null,
      max: 30.5,
      currency: 'GBP',
      period: 'hour',
      origin: 'declared',
    });
    expect(mapProviderF({ ...frankfurt, headline: null }, SEEN_AT)).toBeNull();
  });
});

describe('ProviderFAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('POSTs our filters and follows the cursor until want', async () => {
    server = await serveJson((req) => {
      const n = Number(String((req.body as { cursor?: string }).cursor ?? 'c0').slice(1));
      return { ...page, data: { ...page.data, cursor: { next: `c${n + 1}` } } };
    });
    const records = await new ProviderFAdapter(server.baseUrl).search({
      filters: ALL_FILTERS,
      want: 5,
      signal: signal(),
    });
    expect(records).toHaveLength(5);
    expect(server.requests.map((r) => r.method)).toEqual(['POST', 'POST']);
    expect(server.requests[0]!.url.pathname).toBe('/provider_f/api/search');
    const [first, second] = server.requests.map((r) => r.body as Record<string, unknown>);
    expect(first).toMatchObject({
      keywords: ['engineer', 'developer'],
      location: { country: 'GB' },
      domain: 'acme.com',
      remote: true,
      limit: 5,
    });
    expect(first!['cursor']).toBeUndefined();
    expect(Math.round((Date.now() - (first!['since'] as number)) / 86_400_000)).toBe(7);
    expect(second).toEqual({ ...first, cursor: 'c1' });
  });

  it('stops without a next cursor and leaves filters it cannot apply', async () => {
    server = await serveJson(() => ({ ...page, data: { ...page.data, cursor: { next: null } } }));
    const records = await new ProviderFAdapter(server.baseUrl).search({
      filters: UNPUSHABLE_FILTERS,
      want: 50,
      signal: signal(),
    });
    expect(records).toHaveLength(3);
    expect(server.requests[0]!.body).toEqual({ limit: 50 });
  });
});
