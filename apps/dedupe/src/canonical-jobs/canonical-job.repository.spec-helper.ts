// Shared by the CanonicalJobRepository specs (against the real PostgreSQL): listings of one
// opening as provider_a shows it, and a repository on a throwaway database of each spec file's own
// (this module is loaded once per spec file).
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { toJob } from './job-view.js';

const DESCRIPTION =
  'Northwind is hiring a Platform Engineer in Leeds to run our build and deploy systems. You will own CI pipelines, ' +
  'observability and the developer platform, working with ' +
  'product teams every day. We offer a hybrid week and a ' +
  'learning budget.';
const POSTED = '2026-11-02T10:00:00.000Z';

let sequence = 0;
export function record(overrides: Partial<NormalizedProviderRecord> = {}): NormalizedProviderRecord {
  return {
    provider: 'provider_a',
    provider_job_id: `A-${sequence++}`,
    url: null,
    title: 'Platform Engineer',
    company: { name: 'Northwind Ltd', domain: 'northwind.example' },
    location: { city: 'Leeds', region: 'England', country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'mid',
    job_family: 'engineering',
    salary: { min: 55_000, max: 65_000, currency: 'GBP', period: 'year', origin: 'declared' },
    description: DESCRIPTION,
    apply_url: 'https://northwind.example/careers/4f21aa',
    posted_at: POSTED,
    seen_at: '2026-11-20T12:00:00.000Z',
    ...overrides,
  };
}

/** The spec file's database, migrated as deployed (set before its tests), and dedupe's repository on it. */
export let db: ThrowawayDatabase;
export let repository: CanonicalJobRepository;

/** Registers the spec file's hooks: `db` and `repository` made before its tests, the database dropped after them. */
export function useThrowawayRepository(): void {
  beforeAll(async () => {
    db = await throwawayDatabase('dedupe');
    repository = new CanonicalJobRepository(db.prisma, outboxStub());
  }, 60_000);

  afterAll(async () => {
    await db?.drop();
  });
}

/** A stored job as the API shows it. */
export const jobOf = async (id: string) => toJob((await repository.load([id]))[0]!);

/** A search's merge as dedupe runs it: the answer's rows, then the sightings written. */
export async function mergeAndSight(repo: CanonicalJobRepository, records: readonly NormalizedProviderRecord[]) {
  const merged = await repo.mergeListings(records);
  await merged.writeSightings();
  return merged;
}
