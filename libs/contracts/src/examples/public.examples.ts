/** The public objects the messages carry: a job, search metadata and a response, a provider record. */
import type { JobSearchResponse, SearchMetadata } from '../public/job-search.schema.js';
import type { Job } from '../public/job.schema.js';
import type { NormalizedProviderRecord } from '../records/normalized-provider-record.schema.js';

/** The instant the examples are set at. */
export const T0 = '2026-10-01T12:00:00.000Z';

export function job(): Job {
  return {
    id: 'job_01JABCDEF',
    title: 'Senior Backend Engineer',
    company: { id: 'cmp_acme', name: 'Acme Ltd', domain: 'acme.example' },
    location: { city: 'London', region: 'England', country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: 'engineering',
    salary: { min: 80_000, max: 100_000, currency: 'GBP', period: 'year', origin: 'declared' },
    description: 'Build the platform.',
    apply_url: 'https://acme.example/jobs/1/apply',
    posted_at: '2026-09-28T00:00:00Z',
    first_seen_at: '2026-09-28T06:00:00Z',
    last_seen_at: T0,
    last_verified_at: T0,
    status: 'open',
    closed_reason: null,
    repost_count: 0,
    p_real: 0.93,
    sources: [
      {
        provider: 'own_index',
        provider_job_id: 'own-1',
        url: 'https://acme.example/jobs/1',
        first_seen_at: '2026-09-28T06:00:00Z',
        last_seen_at: T0,
        fields: ['title', 'location', 'description'],
      },
      {
        provider: 'provider_a',
        provider_job_id: 'A-991',
        url: null,
        first_seen_at: '2026-09-29T06:00:00Z',
        last_seen_at: T0,
        fields: ['salary', 'seniority'],
      },
    ],
    license: { display: true, resale: false },
  };
}

export function metadata(): SearchMetadata {
  return {
    request_id: 'req_123',
    status: 'complete',
    credits_charged: 1,
    jobs_already_paid: 0,
    duplicates_merged: 1,
    credits_remaining: 99,
    providers: {
      tried: ['own_index', 'provider_a'],
      hit: ['own_index', 'provider_a'],
      failed: [],
      contributions: { own_index: 1, provider_a: 0 },
    },
    field_coverage: { salary: 1, seniority: 1, 'location.remote': 1, description: 1 },
    latency_ms: 420,
  };
}

export function searchResponse(): JobSearchResponse {
  return { data: [job()], next_cursor: 'cur_abc', metadata: metadata() };
}

export function normalizedRecord(): NormalizedProviderRecord {
  return {
    provider: 'provider_a',
    provider_job_id: 'A-991',
    url: 'https://provider-a.example/jobs/A-991',
    title: 'Senior Backend Engineer',
    company: { name: 'Acme Ltd', domain: 'acme.example' },
    location: { city: 'London', region: null, country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'senior',
    job_family: null,
    salary: { min: 80_000, max: 100_000, currency: 'GBP', period: 'year', origin: 'inferred' },
    description: null,
    apply_url: null,
    posted_at: null,
    seen_at: T0,
  };
}
