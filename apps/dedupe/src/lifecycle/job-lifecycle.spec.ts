import { examples, JobLifecycleChanged, type NormalizedProviderRecord } from '@jobs/contracts';
import {
  changedJobFields,
  scopeFieldsBefore,
  decideChanges,
  hiringChangeId,
  jobChangeId,
  listingChangedFields,
  recordFieldHashes,
  UPDATE_FIELDS,
} from './job-lifecycle.js';

const record = (overrides: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord => ({
  ...examples.normalizedRecord(),
  ...overrides,
});

describe('decideChanges', () => {
  const none = { created: false, reposted: false, closed: false, changedFields: [] as const };
  it('publishes nothing when nothing happened (a sighting only)', () => {
    expect(decideChanges(none)).toEqual([]);
  });
  it('a job made in the transaction is opened only, whatever else happened to it', () => {
    expect(decideChanges({ ...none, created: true })).toEqual(['opened']);
    expect(decideChanges({ created: true, reposted: true, closed: false, changedFields: ['title'] })).toEqual([
      'opened',
    ]);
  });
  it('a re-listing is reposted, then updated when tracked fields changed', () => {
    expect(decideChanges({ ...none, reposted: true })).toEqual(['reposted']);
    expect(decideChanges({ ...none, reposted: true, changedFields: ['salary'] })).toEqual(['reposted', 'updated']);
  });
  it('a field change is updated; a closing is closed after it', () => {
    expect(decideChanges({ ...none, changedFields: ['description'] })).toEqual(['updated']);
    expect(decideChanges({ ...none, closed: true })).toEqual(['closed']);
    expect(decideChanges({ ...none, closed: true, changedFields: ['title'] })).toEqual(['updated', 'closed']);
  });
  it('closed and re-listed in one transaction ends open: reposted only', () => {
    expect(decideChanges({ ...none, closed: true, reposted: true })).toEqual(['reposted']);
  });
});

describe('changedJobFields', () => {
  const job = examples.job();
  it('names the tracked fields that changed, in UPDATE_FIELDS order', () => {
    expect(changedJobFields(job, { ...job })).toEqual([]);
    expect(changedJobFields(job, { ...job, description: 'new', title: 'Staff Engineer' })).toEqual([
      'title',
      'description',
    ]);
    expect(changedJobFields(job, { ...job, location: { ...job.location, city: 'Leeds' } })).toEqual(['location']);
    expect(changedJobFields(job, { ...job, salary: null })).toEqual(['salary']);
  });
  it('ignores key order inside objects and fields that never fire an update', () => {
    const reordered = {
      ...job,
      location: {
        remote: job.location.remote,
        country_code: job.location.country_code,
        region: job.location.region,
        city: job.location.city,
      },
    };
    expect(changedJobFields(job, reordered)).toEqual([]);
    expect(
      changedJobFields(job, {
        ...job,
        ...({ last_seen_at: '2030-01-01T00:00:00.000Z', posted_at: null, p_real: 0.99 } as object),
      }),
    ).toEqual([]);
  });
  it(
    'names the company once the job reaches a known one (a domain ' +
      'where there was none), and company.name when its known ' +
      'company is renamed',
    () => {
      const unknown = { ...job, company: { ...job.company, domain: null } };
      expect(changedJobFields(unknown, job)).toEqual(['company']);
      expect(changedJobFields(unknown, { ...job, salary: null })).toEqual(['salary', 'company']);
      expect(changedJobFields(job, { ...job, company: { ...job.company, name: 'Acme Holdings' } })).toEqual([
        'company.name',
      ]);
      expect(changedJobFields(unknown, { ...unknown, company: { ...unknown.company, name: 'ACME' } })).toEqual([]);
    },
  );
  it('covers exactly the documented list', () => {
    expect(UPDATE_FIELDS).toEqual([
      'title',
      'location',
      'employment_type',
      'seniority',
      'job_family',
      'salary',
      'description',
      'apply_url',
    ]);
  });
});

describe('listingChangedFields', () => {
  it('sees a changed field of the same listing, not a provider spelling of the same title', () => {
    const before = recordFieldHashes(record());
    expect(listingChangedFields(before, record())).toEqual([]);
    expect(listingChangedFields(before, record({ title: record().title.toUpperCase() }))).toEqual([]);
    expect(listingChangedFields(before, record({ title: 'Chief Lighthouse Keeper' }))).toEqual(['title']);
    expect(
      listingChangedFields(
        before,
        record({ salary: { min: 1, max: 2, currency: 'GBP', period: 'year', origin: 'declared' }, seniority: 'lead' }),
      ),
    ).toEqual(['seniority', 'salary']);
  });
  it('never erases: a value the listing dropped is not a change', () => {
    const before = recordFieldHashes(record());
    expect(listingChangedFields(before, record({ description: null, salary: null }))).toEqual([]);
  });
  it('a source stored without hashes changes nothing', () => {
    expect(listingChangedFields({}, record({ title: 'Anything Else' }))).toEqual([]);
  });
  it('hashes as the stored sources were hashed (a change here would make every listing look changed)', () => {
    const accented = record({
      title: 'Senior Ingénieur (m/w/d) - Remote',
      description: 'Build \u201cthings\u201d \u2013 with \u00fcmlauts',
      salary: { max: 90000, min: 70000, currency: 'EUR', period: 'year', origin: 'declared' },
    });
    expect(recordFieldHashes(accented)).toEqual({
      title: 'cRqwl4iVCYTI',
      location: '5m7b0Y7dKu3h',
      employment_type: 'XPGrxis55uPm',
      seniority: 'IFMCI5OIw6Lp',
      job_family: 'dCNOmK_nSY-1',
      salary: 'll08YDwNO5uJ',
      description: 'yI6UgloGQwBR',
      apply_url: 'dCNOmK_nSY-1',
      _record: 'f4uzYNBdF-zx',
    });
    expect(recordFieldHashes(record())._record).toBe('LBFXJ1KSgG4Y');
  });
});

describe('change ids', () => {
  it('are stable, distinct per version and valid contract ids', () => {
    expect(jobChangeId('job_abc', 3)).toBe('chg_job_abc_3');
    expect(jobChangeId('job_abc', 3)).not.toBe(jobChangeId('job_abc', 4));
    expect(hiringChangeId('cmp_x', 1)).toBe('chg_cmp_x_h1');
    expect(
      JobLifecycleChanged.ValueSchema.safeParse({
        v: 1,
        change_id: jobChangeId('job_abc', 1),
        change: 'opened',
        changed_fields: [],
        job: examples.job(),
        occurred_at: '2026-10-01T12:00:00.000Z',
      }).success,
    ).toBe(true);
  });
});

describe('scopeFieldsBefore', () => {
  const job = examples.job();
  it('keeps the values before the change of the changed fields that filters read, the company when it moved', () => {
    const renamed = { ...job, company: { ...job.company, name: 'Acme Holdings' } };
    expect(scopeFieldsBefore(job, ['title', 'description', 'apply_url', 'salary'])).toEqual({
      title: job.title,
      salary: job.salary,
    });
    expect(scopeFieldsBefore(renamed, ['company.name', 'seniority'])).toEqual({
      company: renamed.company,
      seniority: renamed.seniority,
    });
    expect(scopeFieldsBefore(job, [])).toEqual({});
  });
});
