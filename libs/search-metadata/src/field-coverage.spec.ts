import { examples, type Job } from '@jobs/contracts';
import { COVERAGE_FIELDS, fieldCoverage } from './field-coverage.js';

const job = (patch: Partial<Job> = {}): Job => ({ ...examples.job(), ...patch });

describe('fieldCoverage', () => {
  it('reports the fraction of jobs with a value, nested fields included', () => {
    const coverage = fieldCoverage([
      job(),
      job({ salary: null, location: { ...examples.job().location, remote: null } }),
      job({ salary: null }),
    ]);
    expect(coverage['salary']).toBe(0.333);
    expect(coverage['location.remote']).toBe(0.667);
    expect(Object.keys(coverage)).toEqual([...COVERAGE_FIELDS]);
  });

  it('is 0 for every field of an empty page', () => {
    expect(Object.values(fieldCoverage([]))).toEqual(COVERAGE_FIELDS.map(() => 0));
  });
});
