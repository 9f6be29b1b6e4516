import { FiltersSchema, JobSearchRequestSchema, type Filters, type JobSearchRequestInput } from '@jobs/contracts';
import { SANDBOX_AS_OF, SANDBOX_JOBS } from './sandbox-dataset.js';
import { matchesFilters, yearlyMinimum } from '@jobs/job-filters';
import { matchingSandboxJobs, plannedProviders } from './sandbox-filters.js';

const now = Date.parse(SANDBOX_AS_OF);
const run = (filters: Filters) => SANDBOX_JOBS.filter((job) => matchesFilters(job, FiltersSchema.parse(filters), now));

describe('sandbox filters', () => {
  it('drops closed jobs unless include_closed is true', () => {
    const open = run({});
    expect(open.every((job) => job.status === 'open')).toBe(true);
    const all = run({ include_closed: true });
    expect(all.length).toBe(SANDBOX_JOBS.length);
    expect(all.length).toBeGreaterThan(open.length);
    expect(run({ include_closed: false })).toEqual(open);
  });

  it('matches title keywords case-insensitively and excludes title_not', () => {
    const engineers = run({ title_or: ['ENGINEER'] });
    expect(engineers.length).toBeGreaterThan(5);
    expect(engineers.every((job) => /engineer/i.test(job.title))).toBe(true);
    const notSenior = run({ title_or: ['engineer'], title_not: ['senior'] });
    expect(notSenior.length).toBeGreaterThan(0);
    expect(notSenior.length).toBeLessThan(engineers.length);
    expect(notSenior.some((job) => /senior/i.test(job.title))).toBe(false);
    expect(run({ title_or: ['data', 'designer'] }).every((job) => /data|designer/i.test(job.title))).toBe(true);
  });

  it('filters by country, seniority and employment type, never matching unknowns', () => {
    const gbOrDe = run({ country_code_or: ['GB', 'DE'] });
    expect(gbOrDe.length).toBeGreaterThan(0);
    expect(new Set(gbOrDe.map((job) => job.location.country_code))).toEqual(new Set(['GB', 'DE']));
    const leads = run({ seniority_or: ['lead', 'director'] });
    expect(leads.length).toBeGreaterThan(0);
    expect(leads.every((job) => job.seniority === 'lead' || job.seniority === 'director')).toBe(true);
    const contracts = run({ employment_type_or: ['contract'] });
    expect(contracts.length).toBeGreaterThan(0);
    expect(contracts.every((job) => job.employment_type === 'contract')).toBe(true);
    expect(
      run({ seniority_or: ['intern', 'junior', 'mid', 'senior', 'lead', 'director', 'vp', 'c_level'] }).some(
        (job) => job.seniority === null,
      ),
    ).toBe(false);
  });

  it('remote: true keeps remote jobs, false keeps on-site ones, null keeps everything', () => {
    const remote = run({ remote: true });
    const onsite = run({ remote: false });
    expect(remote.length).toBeGreaterThan(0);
    expect(onsite.length).toBeGreaterThan(0);
    expect(remote.every((job) => job.location.remote === true)).toBe(true);
    expect(onsite.every((job) => job.location.remote === false)).toBe(true);
    expect(remote.length + onsite.length).toBeLessThan(run({}).length); // unknown remote is in neither
    expect(run({ remote: null })).toEqual(run({}));
  });

  it('salary_min_gte compares the yearly minimum and drops jobs without a salary', () => {
    expect(yearlyMinimum({ min: 10, max: null, currency: 'EUR', period: 'hour', origin: 'declared' })).toBe(20800);
    expect(yearlyMinimum({ min: 3000, max: 4000, currency: 'EUR', period: 'month', origin: 'declared' })).toBe(36000);
    expect(yearlyMinimum({ min: null, max: 4000, currency: 'EUR', period: 'year', origin: 'declared' })).toBeNull();
    const paid = run({ salary_min_gte: 100000 });
    expect(paid.length).toBeGreaterThan(0);
    expect(paid.every((job) => (yearlyMinimum(job.salary) ?? -1) >= 100000)).toBe(true);
    expect(run({ salary_min_gte: 0 }).every((job) => job.salary !== null && job.salary.min !== null)).toBe(true);
    expect(run({ salary_min_gte: 0 }).length).toBeLessThan(run({}).length);
  });

  it('filters by company domain (normalised by the schema) and job family', () => {
    const acme = run({ company_domain_or: ['Acme-Robotics.example'] });
    expect(acme.length).toBe(
      SANDBOX_JOBS.filter((job) => job.company.domain === 'acme-robotics.example' && job.status === 'open').length,
    );
    expect(acme.length).toBeGreaterThan(1);
    const data = run({ job_family_or: ['Data'] });
    expect(data.length).toBeGreaterThan(0);
    expect(data.every((job) => job.job_family === 'data')).toBe(true);
  });

  it('posted_within_days counts back from the sandbox clock', () => {
    const week = run({ posted_within_days: 7 });
    expect(week.length).toBeGreaterThan(0);
    expect(week.length).toBeLessThan(run({}).length);
    expect(week.every((job) => now - Date.parse(job.first_seen_at) <= 7 * 86_400_000)).toBe(true);
  });

  it('combines filters with AND', () => {
    const jobs = run({ title_or: ['engineer'], remote: true, country_code_or: ['DE', 'SE', 'AU'] });
    expect(jobs.length).toBeGreaterThan(0);
    expect(
      jobs.every(
        (job) =>
          /engineer/i.test(job.title) &&
          job.location.remote === true &&
          ['DE', 'SE', 'AU'].includes(job.location.country_code ?? ''),
      ),
    ).toBe(true);
  });
});

// A test key's async search filters the sandbox (the sync sandbox answers one fixed page).
describe('matchingSandboxJobs', () => {
  const match = (input: JobSearchRequestInput) => matchingSandboxJobs(JobSearchRequestSchema.parse(input));

  it('applies the filters deterministically, newest first', () => {
    const a = match({ filters: { country_code_or: ['GB'], include_closed: true } });
    expect(match({ filters: { include_closed: true, country_code_or: ['GB'] } })).toEqual(a);
    expect(a.length).toBeGreaterThan(1);
    expect(a).toEqual(run({ country_code_or: ['GB'], include_closed: true }));
    expect(a.some((job) => job.status === 'closed')).toBe(true);
    expect(match({})).toEqual(SANDBOX_JOBS.filter((job) => job.status === 'open'));
    expect(match({ filters: { title_or: ['astronaut'] } })).toEqual([]);
  });

  it('honours the waterfall: own_only, a provider list and consensus', () => {
    const ownOnly = JobSearchRequestSchema.parse({ waterfall: { strategy: 'own_only' } });
    expect(plannedProviders(ownOnly)).toEqual(['own_index']);
    const own = matchingSandboxJobs(ownOnly);
    expect(own.length).toBeGreaterThan(0);
    expect(own.every((job) => job.sources.length === 1 && job.sources[0]?.provider === 'own_index')).toBe(true);
    const listedRequest = JobSearchRequestSchema.parse({ waterfall: { providers: ['provider_e', 'provider_f'] } });
    expect(plannedProviders(listedRequest)).toEqual(['provider_e', 'provider_f']);
    const listed = matchingSandboxJobs(listedRequest);
    expect(listed.length).toBeGreaterThan(0);
    expect(
      listed.every((job) => job.sources.every((s) => s.provider === 'provider_e' || s.provider === 'provider_f')),
    ).toBe(true);
    const consensus = match({ waterfall: { strategy: 'consensus', min_sources: 3 } });
    expect(consensus.length).toBeGreaterThan(0);
    expect(consensus.every((job) => job.sources.length >= 3)).toBe(true);
    expect(consensus.length).toBeLessThan(match({}).length);
  });
});
