// Integration test against the real PostgreSQL: the canonical jobs of a set of provider records
// do not depend on the order the records arrive in, nor on how they are cut into batches.
import fc from 'fast-check';
import type { Job, NormalizedProviderRecord, ProviderSlug } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
// The simulated market and the real adapters are this test's data: the records dedupe gets in production.
// eslint-disable-next-line @nx/enforce-module-boundaries
import {
  mapOwnIndex,
  mapProviderA,
  mapProviderB,
  mapProviderC,
  mapProviderD,
  mapProviderE,
  mapProviderF,
} from '@jobs/provider-adapters';
// eslint-disable-next-line @nx/enforce-module-boundaries
import { World, createProviderViews } from '@jobs/sim-world';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { toJob } from './job-view.js';

const AT = Date.parse('2026-11-20T12:00:00Z');
const SEEN_AT = new Date(AT).toISOString();
const PERMUTATIONS = 200;

type Mapper = (raw: unknown, seenAt: string) => NormalizedProviderRecord | null;
const MAPPERS: Record<ProviderSlug, Mapper> = {
  own_index: mapOwnIndex,
  provider_a: mapProviderA,
  provider_b: mapProviderB,
  provider_c: mapProviderC,
  provider_d: mapProviderD,
  provider_e: mapProviderE,
  provider_f: mapProviderF,
};

/** A detail answer's item: provider_e wraps it in a Solr response, provider_f in `data.posting`. */
function itemOf(provider: ProviderSlug, body: unknown): unknown {
  const b = body as { response?: { docs: unknown[] }; data?: { posting: unknown } };
  if (provider === 'provider_e') return b.response!.docs[0];
  if (provider === 'provider_f') return b.data!.posting;
  return body;
}

/**
 * Openings of a small simulated market listed by at least three sources, as each source's adapter
 * maps them: half of them listed by the own crawler, half by partners only (where the partners'
 * ranking decides every field).
 */
function simulatedRecords(): { records: NormalizedProviderRecord[]; openings: number } {
  const world = new World({ seed: 34, clock: () => AT, companies: 300, slots: 900 });
  const views = createProviderViews(world);
  const byOpening = new Map<string, { provider: ProviderSlug; providerJobId: string }[]>();
  for (const e of world.groundTruthEntries(AT))
    byOpening.set(e.worldJobId, [...(byOpening.get(e.worldJobId) ?? []), e]);
  const wide = [...byOpening.values()].filter((listings) => new Set(listings.map((l) => l.provider)).size >= 3);
  const withCrawler = wide.filter((l) => l.some((x) => x.provider === 'own_index')).slice(0, 5);
  const partnersOnly = wide.filter((l) => l.every((x) => x.provider !== 'own_index')).slice(0, 5);
  const chosen = [...withCrawler, ...partnersOnly];
  const records = chosen.flatMap((listings) =>
    listings.flatMap(({ provider, providerJobId }) => {
      const answer = views[provider].detail(providerJobId, AT);
      const record = answer.status === 200 ? MAPPERS[provider](itemOf(provider, answer.body), SEEN_AT) : null;
      return record ? [record] : [];
    }),
  );
  return { records, openings: chosen.length };
}

/** A job's public fields that its sources decide (ids are minted per run). */
function decided(job: Job) {
  const {
    title,
    location,
    employment_type,
    seniority,
    job_family,
    salary,
    description,
    apply_url,
    posted_at,
    status,
    repost_count,
  } = job;
  return {
    title,
    company: { name: job.company.name, domain: job.company.domain },
    location,
    employment_type,
    seniority,
    job_family,
    salary,
    description,
    apply_url,
    posted_at,
    status,
    repost_count,
  };
}

/** The store's canonical jobs as a function of their sources: sources → decided fields. */
async function storeBySources(
  db: ThrowawayDatabase,
  repository: CanonicalJobRepository,
): Promise<Map<string, ReturnType<typeof decided>>> {
  const ids = (await db.prisma.canonicalJob.findMany({ select: { id: true } })).map((j) => j.id);
  const jobs = (await repository.load(ids)).map(toJob);
  return new Map(
    jobs.map((job) => [
      job.sources
        .map((s) => `${s.provider}:${s.provider_job_id}`)
        .sort()
        .join(' '),
      decided(job),
    ]),
  );
}

let db: ThrowawayDatabase;
let repository: CanonicalJobRepository;

beforeAll(async () => {
  db = await throwawayDatabase('arrival');
  repository = new CanonicalJobRepository(db.prisma, outboxStub());
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

async function emptyStore(): Promise<void> {
  await db.prisma.$executeRawUnsafe(
    'TRUNCATE canonical_job_keys, job_sources, canonical_jobs, company_hiring_states, companies, outbox_messages',
  );
}

describe('canonical jobs and arrival order', () => {
  const { records, openings } = simulatedRecords();

  it('draws enough of the market to mean something: several sources per opening, lossy values among them', () => {
    expect(openings).toBe(10);
    expect(records.length).toBeGreaterThanOrEqual(30);
    expect(records.filter((r) => (r.lossy ?? []).length > 0).length).toBeGreaterThan(0);
  });

  it(`gives the same jobs for ${PERMUTATIONS} orders and batchings of the same records`, async () => {
    let expected: Map<string, ReturnType<typeof decided>> | undefined;
    await fc.assert(
      fc.asyncProperty(
        // indices, so a counterexample reads as an order
        fc.shuffledSubarray(
          records.map((_, i) => i),
          { minLength: records.length },
        ),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: records.length, maxLength: records.length }),
        fc.boolean(),
        async (indices, cuts, asSearch) => {
          const order = indices.map((i) => records[i]!);
          await emptyStore();
          // cut the order into batches, as waves, chunks and refresh parts come
          for (let at = 0, i = 0; at < order.length; at += cuts[i++]!) {
            const batch = order.slice(at, at + cuts[i]!);
            if (asSearch) await (await repository.mergeListings(batch)).writeSightings();
            else await repository.mergeBatch(batch);
          }
          const store = await storeBySources(db, repository);
          expected ??= store;
          expect(store.size).toBe(expected.size);
          expect(Object.fromEntries(store)).toEqual(Object.fromEntries(expected));
        },
      ),
      { seed: 34, numRuns: PERMUTATIONS, endOnFailure: true },
    );
    expect(expected!.size).toBe(openings);
  }, 600_000);

  it('takes the own crawler\u2019s values where it lists the opening, an exact partner\u2019s otherwise', async () => {
    await emptyStore();
    await repository.mergeBatch(records);
    const ids = (await db.prisma.canonicalJob.findMany({ select: { id: true } })).map((j) => j.id);
    for (const job of (await repository.load(ids)).map(toJob)) {
      const crawled = records.find(
        (r) =>
          r.provider === 'own_index' &&
          job.sources.some((s) => s.provider === 'own_index' && s.provider_job_id === r.provider_job_id),
      );
      if (crawled) {
        expect({
          title: job.title,
          seniority: job.seniority,
          salary: job.salary,
          description: job.description,
          location: job.location,
        }).toEqual({
          title: crawled.title,
          seniority: crawled.seniority,
          salary: crawled.salary,
          description: crawled.description,
          location: crawled.location,
        });
        continue;
      }
      // no crawler: a lossy seniority only where no partner states an exact one
      const mine = records.filter((r) =>
        job.sources.some((s) => s.provider === r.provider && s.provider_job_id === r.provider_job_id),
      );
      const exact = mine.filter((r) => r.seniority !== null && !(r.lossy ?? []).includes('seniority'));
      if (exact.length > 0) expect(exact.map((r) => r.seniority)).toContain(job.seniority);
    }
  });
});
