import { examples } from '../examples.js';
import { NormalizedProviderRecordSchema } from './normalized-provider-record.schema.js';

describe('NormalizedProviderRecordSchema', () => {
  it('parses a record', () => {
    expect(NormalizedProviderRecordSchema.parse(examples.normalizedRecord())).toEqual(examples.normalizedRecord());
  });

  it('has no canonical fields and requires every normalized one', () => {
    expect(NormalizedProviderRecordSchema.safeParse({ ...examples.normalizedRecord(), id: 'job_1' }).success).toBe(
      false,
    );
    for (const field of Object.keys(examples.normalizedRecord())) {
      const partial: Record<string, unknown> = examples.normalizedRecord();
      delete partial[field];
      expect([field, NormalizedProviderRecordSchema.safeParse(partial).success]).toEqual([field, false]);
    }
  });

  it('rejects un-normalized provider quirks', () => {
    const r = examples.normalizedRecord();
    expect(
      NormalizedProviderRecordSchema.safeParse({ ...r, location: { ...r.location, country_code: 'UK' } }).success,
    ).toBe(false);
    expect(NormalizedProviderRecordSchema.safeParse({ ...r, salary: '80k-100k GBP' }).success).toBe(false);
    expect(NormalizedProviderRecordSchema.safeParse({ ...r, seniority: 'Senior' }).success).toBe(false);
    expect(
      NormalizedProviderRecordSchema.safeParse({ ...r, company: { name: 'Acme', domain: 'https://acme.example' } })
        .success,
    ).toBe(false);
  });

  it('takes the fields an adapter mapped lossily, named from the ranked fields only', () => {
    const r = examples.normalizedRecord();
    expect(NormalizedProviderRecordSchema.parse({ ...r, lossy: ['seniority', 'location.remote'] }).lossy).toEqual([
      'seniority',
      'location.remote',
    ]);
    expect(NormalizedProviderRecordSchema.safeParse({ ...r, lossy: ['company'] }).success).toBe(false);
    expect(NormalizedProviderRecordSchema.safeParse({ ...r, lossy: 'seniority' }).success).toBe(false);
  });
});
