// Shared by the matching specs: one opening (a senior supply chain analyst in Turin) as
// provider_a and provider_e show it, and two views of the matcher's verdict on a pair of records.
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { CanonicalIndex, recordToMatch } from './canonical-index.js';
import { scoreCandidate, type CandidateJob } from './score.js';

export const DESCRIPTION =
  'At Apexstack, our operations team is looking for a Senior ' +
  'Supply Chain Analyst in Turin. In this role you will report ' +
  'on operational metrics and coordinate with suppliers and ' +
  'internal teams. ' +
  'We are looking for someone with 5+ years of experience in ' +
  'vendor management and a good working knowledge of process ' +
  'improvement. You will work from our Turin office, with up to ' +
  'two days a week from home. ' +
  'We support you with relocation and visa sponsorship where needed.';
export const OTHER_DESCRIPTION =
  'Apexstack is hiring a Senior Supply Chain Analyst to join ' +
  'the logistics team in Turin. In this role you will keep ' +
  'day-to-day operations running smoothly and improve processes ' +
  'and remove bottlenecks. ' +
  'We are looking for someone with 5+ years of experience in ' +
  'spreadsheets and a good working knowledge of project ' +
  'management. This role is based in our Turin office. ' +
  'Expect a friendly team, a yearly offsite and a budget for conferences.';
const SNIPPET = `${DESCRIPTION.slice(0, 150).replace(/\s+\S*$/, '')}…`;
export const POSTED = '2026-11-03T09:14:27.000Z';

let sequence = 0;
/** provider_a-like record of one opening; overrides describe how another provider shows it. */
export function record(overrides: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord {
  return {
    provider: 'provider_a',
    provider_job_id: `id-${sequence++}`,
    url: null,
    title: 'Senior Supply Chain Analyst',
    company: { name: 'Apexstack S.p.A.', domain: 'apexstack.com' },
    location: { city: 'Turin', region: 'Piedmont', country_code: 'IT', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: null,
    salary: { min: 42000, max: 51000, currency: 'EUR', period: 'year', origin: 'declared' },
    description: DESCRIPTION,
    apply_url: 'https://jobs.apexstack.com/o/senior-supply-chain-analyst?id=be967d',
    posted_at: POSTED,
    seen_at: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}

/**
 * How provider_e shows the same opening: no domain, a spelling of the name, lower-case title, a snippet, no seniority.
 */
export const providerE = (o: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord =>
  record({
    provider: 'provider_e',
    company: { name: 'APEXSTACK, Inc.', domain: null },
    title: 'senior supply chain analyst',
    employment_type: null,
    seniority: null,
    salary: null,
    description: SNIPPET,
    lossy: ['title', 'description'],
    ...o,
  });

export function pairScore(
  a: NormalizedProviderRecord,
  b: NormalizedProviderRecord,
  explain?: Record<string, number>,
): number {
  const ra = recordToMatch(a);
  const rb = recordToMatch(b);
  const job: CandidateJob = {
    id: 'job',
    features: rb.features,
    keys: new Set(rb.keys),
    providers: new Set([b.provider]),
  };
  return scoreCandidate(ra, job, explain);
}

export const sameOpening = (a: NormalizedProviderRecord, b: NormalizedProviderRecord): boolean => {
  const index = new CanonicalIndex();
  return index.merge(a).jobId === index.merge(b).jobId;
};
