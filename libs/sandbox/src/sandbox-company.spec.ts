import { CompanyProfileSchema } from '@jobs/contracts';
import { SANDBOX_JOBS } from './sandbox-dataset.js';
import { sandboxCompanyProfile } from './sandbox-company.js';

describe('sandboxCompanyProfile', () => {
  it('profiles every sandbox company from its fixed jobs', () => {
    const domains = [...new Set(SANDBOX_JOBS.flatMap((j) => (j.company.domain ? [j.company.domain] : [])))];
    expect(domains.length).toBeGreaterThan(0);
    for (const domain of domains) {
      const profile = sandboxCompanyProfile(domain)!;
      expect(CompanyProfileSchema.parse(profile)).toEqual(profile);
      expect(profile.company.domain).toBe(domain);
      expect(profile.open_jobs_count).toBe(
        SANDBOX_JOBS.filter((j) => j.company.domain === domain && j.status === 'open').length,
      );
    }
  });

  it('knows no other domain', () => {
    expect(sandboxCompanyProfile('not-in-the-sandbox.example')).toBeUndefined();
  });
});
