// Integration test against the real PostgreSQL (the server of DATABASE_URL): a throwaway
// database is migrated exactly as `node scripts/db/migrate.mjs deploy` does, filled through the
// dedupe repository, and the own index's SQL is checked against the one meaning of the filters
// (@jobs/job-filters) on every stored job.
import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { PROVIDER_SLUGS, type Filters, type NormalizedProviderRecord, type ProviderSlug } from '@jobs/contracts';
import type { PrismaService } from '@jobs/db';
import { matchesFilters } from '@jobs/job-filters';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { toJob } from '../canonical-jobs/job-view.js';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { OwnIndexStore } from './own-index.store.js';

const NOW = new Date('2026-11-22T12:00:00Z');
const DAY = 86_400_000;
const TITLES = [
  'Senior Software Engineer',
  'Backend Engineer (m/w/d)',
  'Data Analyst',
  'Ingénieur Logiciel',
  'C++ Developer',
  'Engineering Manager',
  'Product Designer',
  'Head of Data',
];
const COUNTRIES = ['GB', 'DE', 'US', null] as const;
const SENIORITIES = ['junior', 'mid', 'senior', 'lead', null] as const;
const TYPES = ['full_time', 'contract', null] as const;
const FAMILIES = ['Engineering', 'data', null] as const;
const DOMAINS = ['acme.example', 'globex.example', 'initech.example'];
const PROVIDERS: ProviderSlug[] = ['own_index', 'provider_a', 'provider_c'];

/** 120 distinct openings, each listed by one provider, with every field varied. */
function records(): NormalizedProviderRecord[] {
  return Array.from({ length: 120 }, (_, i) => {
    const salaryKind = i % 5;
    return {
      provider: PROVIDERS[i % PROVIDERS.length]!,
      provider_job_id: `R-${i}`,
      url: null,
      // a distinct suffix per opening: no two records are the same job
      title: `${TITLES[i % TITLES.length]} ${['North', 'South', 'East', 'West', 'Core'][i % 5]} ${i}`,
      company: { name: `Company ${i % 3}`, domain: DOMAINS[i % 3]! },
      location: {
        city: `City ${i}`,
        region: null,
        country_code: COUNTRIES[i % 4]!,
        remote: [true, false, null][i % 3]!,
      },
      employment_type: TYPES[i % 3]!,
      seniority: SENIORITIES[i % 5]!,
      job_family: FAMILIES[i % 3]!,
      salary:
        salaryKind === 0
          ? null
          : salaryKind === 1
            ? { min: 30 + i, max: 60 + i, currency: 'USD', period: 'hour', origin: 'declared' }
            : salaryKind === 2
              ? { min: 3000 + i * 40, max: null, currency: 'EUR', period: 'month', origin: 'declared' }
              : salaryKind === 3
                ? { min: null, max: 90_000, currency: 'GBP', period: 'year', origin: 'inferred' }
                : { min: 40_000 + i * 500, max: 90_000 + i * 500, currency: 'GBP', period: 'year', origin: 'declared' },
      description: `Opening number ${i} with a unique description ${randomBytes(4).toString('hex')}.`,
      apply_url: `https://${DOMAINS[i % 3]}/careers/${i}`,
      posted_at: null,
      seen_at: new Date(NOW.getTime() - (i % 40) * DAY).toISOString(),
    };
  });
}

let db: ThrowawayDatabase;
let prisma: PrismaService;
let repository: CanonicalJobRepository;
let store: OwnIndexStore;
/** Every matching job the store answers, in one page. */
const everything = async (query: Omit<Parameters<OwnIndexStore['page']>[0], 'after'>) =>
  (await store.page({ ...query, after: null })).rows;

beforeAll(async () => {
  db = await throwawayDatabase('ownindex');
  prisma = db.prisma;
  repository = new CanonicalJobRepository(prisma, outboxStub());
  store = new OwnIndexStore(prisma, repository);
  const results = await repository.mergeBatch(records());
  expect(new Set(results.map((r) => r.jobId)).size).toBe(120);
  // two jobs closed, to exercise include_closed
  await prisma.canonicalJob.updateMany({
    where: { id: { in: results.slice(0, 2).map((r) => r.jobId) } },
    data: { status: 'closed', closedReason: 'filled' },
  });
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

async function everyJob() {
  const rows = await prisma.canonicalJob.findMany({ include: { company: true, sources: true } });
  return rows.map(toJob);
}

const ALL = [...PROVIDER_SLUGS];

describe('the own index store', () => {
  it('answers exactly the stored jobs that match the filters (SQL == @jobs/job-filters)', async () => {
    const jobs = await everyJob();
    const some = <T>(values: readonly T[]) =>
      fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: 3 });
    const filters: fc.Arbitrary<Filters> = fc.record(
      {
        title_or: some(['engineer', 'eng', 'software eng', 'data', 'c++', 'ingenieur', 'gineer', 'manager']),
        title_not: some(['senior', 'manager', 'head']),
        country_code_or: some(['GB', 'DE', 'US', 'FR']),
        posted_within_days: fc.integer({ min: 1, max: 45 }),
        seniority_or: some(['junior', 'mid', 'senior', 'lead'] as const),
        employment_type_or: some(['full_time', 'contract', 'part_time'] as const),
        remote: fc.constantFrom(true, false, null),
        salary_min_gte: fc.integer({ min: 0, max: 150_000 }),
        company_domain_or: some(DOMAINS),
        job_family_or: some(['engineering', 'DATA', 'sales']),
        include_closed: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    let answered = 0;
    await fc.assert(
      fc.asyncProperty(filters, async (f) => {
        const rows = await everything({ filters: f, scope: { providers_routable: ALL }, want: 1000, now: NOW });
        const expected = jobs.filter((j) => matchesFilters(j, f, NOW.getTime())).map((j) => j.id);
        expect(rows.map((r) => r.id).sort()).toEqual(expected.sort());
        if (expected.length > 0) answered += 1;
      }),
      // seeded: a run that fails is run again the same way, and the count below is the same every run
      { seed: 20_261_203, numRuns: 150 },
    );
    // the property is not vacuous: many filter sets do keep jobs
    expect(answered).toBeGreaterThan(10);
  });

  it('answers a plan only with jobs a provider routable on it has seen', async () => {
    const starter = await everything({
      filters: {},
      scope: { providers_routable: ['own_index'] },
      want: 1000,
      now: NOW,
    });
    expect(starter.length).toBeGreaterThan(0);
    expect(starter.every((row) => row.sources.some((s) => s.provider === 'own_index'))).toBe(true);
    const growth = await everything({
      filters: {},
      scope: { providers_routable: ['own_index', 'provider_a', 'provider_b'] },
      want: 1000,
      now: NOW,
    });
    expect(growth.every((row) => row.sources.some((s) => ['own_index', 'provider_a'].includes(s.provider)))).toBe(true);
    expect(growth.some((row) => row.sources.every((s) => s.provider === 'provider_a'))).toBe(true);
    expect(growth.length).toBeGreaterThan(starter.length);
    // exactly those: every job with a source of a routable provider, no other
    const all = await everything({ filters: {}, scope: { providers_routable: ALL }, want: 1000, now: NOW });
    const seenBy = (providers: string[]) =>
      all
        .filter((row) => row.sources.some((s) => providers.includes(s.provider)))
        .map((row) => row.id)
        .sort();
    expect(starter.map((row) => row.id).sort()).toEqual(seenBy(['own_index']));
    expect(growth.map((row) => row.id).sort()).toEqual(seenBy(['own_index', 'provider_a', 'provider_b']));
  });

  it('answers the newest first (first seen, then id), at most `want` jobs', async () => {
    const rows = await everything({
      filters: { title_or: ['engineer'] },
      scope: { providers_routable: ALL },
      want: 7,
      now: NOW,
    });
    expect(rows).toHaveLength(7);
    const keys = rows.map((r) => `${r.firstSeenAt.toISOString()}|${r.id}`);
    expect([...keys].sort().reverse()).toEqual(keys);
  });

  it('pages the store for async searches: every matching job once, page after page, in a stable order', async () => {
    const scope = { providers_routable: ALL };
    for (const filters of [
      {},
      { title_or: ['engineer'] },
      { country_code_or: ['GB', 'DE'], include_closed: true },
    ] as Filters[]) {
      const all = await everything({ filters, scope, want: 1000, now: NOW });
      const seen: string[] = [];
      let after = null as Parameters<OwnIndexStore['page']>[0]['after'];
      for (let pages = 0; pages < 100; pages++) {
        const page = await store.page({ filters, scope, want: 7, after, now: NOW });
        expect(page.rows.length).toBeLessThanOrEqual(7);
        seen.push(...page.rows.map((r) => r.id));
        if (!page.next) break;
        after = page.next;
      }
      expect(seen).toHaveLength(new Set(seen).size);
      expect([...seen].sort()).toEqual(all.map((r) => r.id).sort());
    }
  });

  it(
    'counts for a dry run exactly the jobs the pages answer, ' +
      'those seen by enough providers, and those the account paid ' +
      'for',
    async () => {
      const scope = { providers_routable: ALL };
      await prisma.account.create({
        data: {
          id: 'acc_count',
          plan: 'pro',
          creditsRemaining: 0,
          creditsResetAt: NOW,
          rateLimitLimit: 10,
          rateLimitWindowSeconds: 60,
        },
      });
      const engineers = await everything({ filters: { title_or: ['engineer'] }, scope, want: 1000, now: NOW });
      expect(engineers.length).toBeGreaterThan(10);
      // three of them paid for by the account, one paid job that does not match, one paid by someone else
      const paid = engineers.slice(0, 3).map((row) => row.id);
      const other = (await everything({ filters: { title_or: ['designer'] }, scope, want: 1, now: NOW }))[0]!.id;
      await prisma.paidJob.createMany({ data: [...paid, other].map((jobId) => ({ accountId: 'acc_count', jobId })) });
      // two of them also seen by provider_b (bit 4): corroborated by two providers
      await prisma.canonicalJob.updateMany({
        where: { id: { in: engineers.slice(2, 4).map((row) => row.id) } },
        data: { seenBy: { increment: 4 } },
      });

      const count = await store.count({
        filters: { title_or: ['engineer'] },
        scope,
        accountId: 'acc_count',
        minSources: 2,
        now: NOW,
      });
      expect(count).toMatchObject({ matching: engineers.length, corroborated: 2, paid: 3, applied: engineers.length });
      // per partner, the engineers it saw (its bit in seen_by)
      const ids = engineers.map((row) => row.id);
      for (const [bit, provider] of [
        [2, 'provider_a'],
        [4, 'provider_b'],
        [64, 'provider_f'],
      ] as const) {
        const saw = (
          await prisma.canonicalJob.findMany({ where: { id: { in: ids } }, select: { seenBy: true } })
        ).filter((j) => (j.seenBy & bit) !== 0).length;
        expect(count.by_provider.find((p) => p.provider === provider)).toEqual({
          provider,
          matching: saw,
          applied: saw,
        });
      }
      expect(count.by_provider.find((p) => p.provider === 'provider_b')!.matching).toBeGreaterThanOrEqual(2);
      expect(
        await store.count({
          filters: { title_or: ['engineer'] },
          scope,
          accountId: 'acc_nobody',
          minSources: 1,
          now: NOW,
        }),
      ).toMatchObject({ matching: engineers.length, corroborated: engineers.length, paid: 0 });
      // a filter partners do not apply (two countries): what their totals count is the wider part
      const twoCountries = await store.count({
        filters: { title_or: ['engineer'], country_code_or: ['GB', 'DE'] },
        scope,
        accountId: 'acc_nobody',
        minSources: 1,
        now: NOW,
      });
      expect(twoCountries.applied).toBe(engineers.length);
      expect(twoCountries.matching).toBeLessThanOrEqual(engineers.length);
      // every filter and scope as the pages: the count is the pages' length
      for (const [filters, routable] of [
        [{}, ALL],
        [{ country_code_or: ['GB', 'DE'], include_closed: true }, ALL],
        [{ title_or: ['data'] }, ['own_index']],
        [{ remote: true }, ['own_index', 'provider_a']],
      ] as Array<[Filters, ProviderSlug[]]>) {
        const rows = await everything({ filters, scope: { providers_routable: routable }, want: 1000, now: NOW });
        expect(
          (
            await store.count({
              filters,
              scope: { providers_routable: routable },
              accountId: 'acc_count',
              minSources: 1,
              now: NOW,
            })
          ).matching,
        ).toBe(rows.length);
      }
      await prisma.canonicalJob.updateMany({
        where: { id: { in: engineers.slice(2, 4).map((row) => row.id) } },
        data: { seenBy: { decrement: 4 } },
      });
    },
  );

  it('answers consensus only jobs that at least min_sources providers listed, paged as any search', async () => {
    // two openings listed again by a second provider: one job each, two sources
    const again = records()
      .filter((_, i) => i === 4 || i === 7)
      .map((r) => ({ ...r, provider: 'provider_b' as const, provider_job_id: `B-${r.provider_job_id}` }));
    const merged = await repository.mergeBatch(again);
    const scope = { providers_routable: ALL };
    const corroborated = await everything({ filters: {}, scope, want: 1000, now: NOW, minSources: 2 });
    expect(corroborated.map((r) => r.id).sort()).toEqual(merged.map((m) => m.jobId).sort());
    expect(corroborated.every((r) => new Set(r.sources.map((s) => s.provider)).size >= 2)).toBe(true);
    const first = await store.page({ filters: {}, scope, want: 1, after: null, now: NOW, minSources: 2 });
    const second = await store.page({ filters: {}, scope, want: 1, after: first.next, now: NOW, minSources: 2 });
    expect([...first.rows, ...second.rows].map((r) => r.id)).toEqual(corroborated.map((r) => r.id));
    expect(await everything({ filters: {}, scope, want: 1000, now: NOW, minSources: 3 })).toEqual([]);
  });

  it('uses the trigram index for title keywords', async () => {
    await prisma.$executeRawUnsafe('SET enable_seqscan = off');
    const plan = await prisma.$queryRawUnsafe<{ 'QUERY PLAN': string }[]>(
      `EXPLAIN SELECT id FROM canonical_jobs j WHERE j.title_search LIKE '% engineer%'`,
    );
    await prisma.$executeRawUnsafe('RESET enable_seqscan');
    expect(plan.map((l) => l['QUERY PLAN']).join('\n')).toContain('canonical_jobs_title_search_trgm_idx');
  });
});
