import type { NormalizedProviderRecord } from '@jobs/contracts';
import { listingChangedFields, RECORD_HASH, recordFieldHashes, recordHash } from './listing-hash.js';

const record = (over: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord => ({
  provider: 'provider_a',
  provider_job_id: 'a-1',
  url: null,
  title: 'Senior Backend Engineer (m/f/d)',
  company: { name: 'Acme', domain: 'acme.example' },
  location: { city: 'Berlin', region: null, country_code: 'DE', remote: false },
  employment_type: 'full_time',
  seniority: 'senior',
  job_family: 'engineering',
  salary: null,
  description: 'Build things.',
  apply_url: 'https://acme.example/jobs/1',
  posted_at: '2026-11-01T00:00:00.000Z',
  status: 'open',
  seen_at: '2026-12-01T10:00:00.000Z',
  ...over,
});

describe('listing hashes', () => {
  it('the whole record’s hash is the one stored as `_record`', () => {
    expect(recordHash(record())).toBe(recordFieldHashes(record())[RECORD_HASH]);
  });

  it('ignores what is not a tracked field: sightings, ids, posting date, the title’s noise and casing', () => {
    const again = record({
      seen_at: '2026-12-02T10:00:00.000Z',
      posted_at: '2026-11-20T00:00:00.000Z',
      title: 'SENIOR BACKEND ENGINEER',
    });
    expect(recordHash(again)).toBe(recordHash(record()));
    expect(listingChangedFields(recordFieldHashes(record()), again)).toEqual([]);
  });

  it('moves with any tracked field, and names it', () => {
    const changed = record({ description: 'Build other things.' });
    expect(recordHash(changed)).not.toBe(recordHash(record()));
    expect(listingChangedFields(recordFieldHashes(record()), changed)).toEqual(['description']);
  });

  it('never counts a value a provider dropped as a change', () => {
    expect(listingChangedFields(recordFieldHashes(record()), record({ seniority: null }))).toEqual([]);
  });
});
