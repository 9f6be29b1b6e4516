import { NormalizedProviderRecordSchema } from '@jobs/contracts';
import { mapOwnIndex, OwnIndexAdapter } from './own-index.adapter.js';
import { serveJson, type FixtureServer } from './testing/fixture-server.js';
import { SEEN_AT, signal } from './testing/filters.js';

const item = {
  id: 'oi_abc1234',
  title: 'Lighthouse Keeper',
  company: { name: 'Closing', domain: 'Closing.example' },
  location: { city: 'Leeds', region: null, country_code: 'gb', remote: false },
  employment_type: 'full_time',
  seniority: 'mid',
  job_family: 'operations',
  salary: null,
  description: 'Keep the light on.',
  apply_url: null,
  posted_at: '2026-11-01T10:00:00.000Z',
};

describe('mapOwnIndex', () => {
  it('maps an open listing without lifecycle fields (open is the default)', () => {
    const record = mapOwnIndex({ ...item, status: 'open', closed_reason: null }, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(record)).toEqual(record);
    expect(record.status).toBeUndefined();
    expect(record.company.domain).toBe('closing.example');
    expect(record.location.country_code).toBe('GB');
  });

  it('keeps a closed listing closed with its reason', () => {
    const record = mapOwnIndex({ ...item, status: 'closed', closed_reason: 'filled' }, SEEN_AT)!;
    expect(NormalizedProviderRecordSchema.parse(record)).toEqual(record);
    expect(record).toMatchObject({ status: 'closed', closed_reason: 'filled' });
  });
});

describe('OwnIndexAdapter', () => {
  let server: FixtureServer;
  afterEach(() => server.close());

  it('asks for closed openings only when the filters include closed jobs', async () => {
    server = await serveJson(() => ({ data: [item], next_offset: null }));
    const adapter = new OwnIndexAdapter(server.baseUrl);
    await adapter.search({ filters: { company_domain_or: ['closing.example'] }, want: 10, signal: signal() });
    await adapter.search({
      filters: { company_domain_or: ['closing.example'], include_closed: true },
      want: 10,
      signal: signal(),
    });
    expect(server.requests.map((r) => r.url.searchParams.get('include_closed'))).toEqual([null, 'true']);
    expect(server.requests[1]!.url.searchParams.get('company_domain')).toBe('closing.example');
  });

  it('counts an item it cannot read as skipped, so a sweep that met it judges no absences', async () => {
    const unreadable = { ...item, id: 'oi_bad0001', title: '' };
    server = await serveJson(() => ({ data: [item, unreadable], next_offset: null, total: 2 }));
    const paging: { start: null; skipped?: number; totals?: number[] } = { start: null };
    const records = await new OwnIndexAdapter(server.baseUrl).search({
      filters: { company_domain_or: ['closing.example'] },
      want: 10,
      signal: signal(),
      paging,
    });
    expect(records.map((r) => r.provider_job_id)).toEqual(['oi_abc1234']);
    expect(paging.skipped).toBe(1);
  });
});
