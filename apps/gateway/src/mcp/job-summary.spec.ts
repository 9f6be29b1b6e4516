import { examples, type Job } from '@jobs/contracts';
import { JobSummarySchema, salaryText, summarizeJob } from './job-summary.js';

const job = (patch: Partial<Job> = {}): Job => ({ ...examples.job(), ...patch });

describe('summarizeJob', () => {
  it('keeps what a model compares and acts on, and leaves the rest to get_job', () => {
    const full = job();
    const summary = summarizeJob(full);
    expect(summary).toEqual({
      id: full.id,
      title: 'Senior Backend Engineer',
      company: 'Acme Ltd',
      company_domain: 'acme.example',
      location: 'London, England, GB',
      remote: false,
      salary: '80,000-100,000 GBP per year',
      posted_on: full.posted_at!.slice(0, 10),
      providers: full.sources.length,
      status: 'open',
      url: full.apply_url,
    });
    expect(JobSummarySchema.parse(summary)).toEqual(summary);
    expect(JSON.stringify(summary).length).toBeLessThan(JSON.stringify(full).length / 2);
  });

  it('says null where the job does not know, and falls back to a source page for the url', () => {
    const full = job({
      location: { city: null, region: null, country_code: null, remote: null },
      salary: null,
      posted_at: null,
      apply_url: null,
    });
    const summary = summarizeJob(full);
    expect(summary).toMatchObject({
      location: null,
      remote: null,
      salary: null,
      posted_on: null,
      url: full.sources.find((s) => s.url)!.url,
    });
    const noUrl = summarizeJob({ ...full, sources: full.sources.map((source) => ({ ...source, url: null })) });
    expect(noUrl.url).toBeNull();
  });
});

describe('salaryText', () => {
  const salary = { min: 50_000, max: 60_000, currency: 'EUR', period: 'year', origin: 'declared' } as const;
  it.each([
    [salary, '50,000-60,000 EUR per year'],
    [{ ...salary, max: 50_000 }, '50,000 EUR per year'],
    [{ ...salary, max: null }, 'from 50,000 EUR per year'],
    [{ ...salary, min: null }, 'up to 60,000 EUR per year'],
    [{ ...salary, min: 20.5, max: 25, period: 'hour', origin: 'inferred' }, '20.5-25 EUR per hour (inferred)'],
    [{ ...salary, min: null, max: null }, null],
    [null, null],
  ] as const)('%j reads %j', (input, text) => {
    expect(salaryText(input)).toBe(text);
  });
});
