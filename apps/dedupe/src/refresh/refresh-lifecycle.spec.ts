// Integration test against the real PostgreSQL: refresh listings merged by dedupe, the job
// lifecycle they decide (closure only from complete listings) and the changes staged in the
// outbox exactly once.
import { randomBytes } from 'node:crypto';
import type {
  CompanyHiringChanged,
  JobLifecycleChanged,
  NormalizedProviderRecord,
  ProviderSlug,
  RefreshRecordsFetched,
} from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import { SIGHTING_STEP_MS } from '../canonical-jobs/sightings.js';
import { toJob } from '../canonical-jobs/job-view.js';
import { outboxStub } from '@jobs/outbox/testing';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';
import type { RefreshPlanner } from './refresh-planner.js';

const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as Logger;
let db: ThrowawayDatabase;
let repository: CanonicalJobRepository;
let refresh: MergeRefreshUseCase;

beforeAll(async () => {
  db = await throwawayDatabase('lifecycle');
  repository = new CanonicalJobRepository(db.prisma, outboxStub());
  refresh = new MergeRefreshUseCase(repository, { kick: () => undefined } as unknown as RefreshPlanner, logger);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

let clock = Date.parse('2026-11-20T12:00:00.000Z');
const tick = () => new Date((clock += 60_000)).toISOString();

/** A company of its own per test, so scopes never overlap. */
function company() {
  const word = randomBytes(4).toString('hex');
  const domain = `c${word}.example`;
  let n = 0;
  const record = (
    provider: ProviderSlug,
    title: string,
    overrides: Partial<NormalizedProviderRecord> = {},
  ): NormalizedProviderRecord => ({
    provider,
    provider_job_id: `${provider}-${word}-${title.replaceAll(' ', '-')}-${n++}`,
    url: null,
    title,
    company: { name: `Company ${word}`, domain },
    location: { city: 'Leeds', region: null, country_code: 'GB', remote: false },
    employment_type: 'full_time',
    seniority: 'mid',
    job_family: 'engineering',
    salary: { min: 50_000, max: 60_000, currency: 'GBP', period: 'year', origin: 'declared' },
    description: `The ${title} of ${domain}: keep things running, every day, with a friendly team of ${word}.`,
    apply_url: null,
    posted_at: '2026-11-19T09:00:00.000Z',
    seen_at: tick(),
    ...overrides,
  });
  const listing = (
    provider: ProviderSlug,
    records: NormalizedProviderRecord[],
    over: Partial<RefreshRecordsFetched.Value> = {},
  ): RefreshRecordsFetched.Value => {
    const at = tick();
    return {
      v: 1,
      refresh_id: `rfr_${word}`,
      kind: 'companies',
      scope: { key: `companies:${domain}`, filters: { company_domain_or: [domain] } },
      provider,
      part: 0,
      final: true,
      outcome: 'ok',
      complete: true,
      started_at: at,
      latency_ms: 5,
      fetched_at: at,
      records: records.map((r) => ({ ...r, seen_at: at })),
      ...over,
    };
  };
  return { domain, record, listing };
}

async function changesOf(jobId: string): Promise<JobLifecycleChanged.Value[]> {
  const rows = await db.prisma.outboxMessage.findMany({
    where: { topic: 'job.lifecycle.changed', key: jobId },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => JSON.parse(r.value) as JobLifecycleChanged.Value);
}

async function hiringOf(domain: string): Promise<CompanyHiringChanged.Value[]> {
  const rows = await db.prisma.outboxMessage.findMany({
    where: { topic: 'company.hiring.changed', key: domain },
    orderBy: { id: 'asc' },
  });
  return rows.map((r) => JSON.parse(r.value) as CompanyHiringChanged.Value);
}

const jobOf = async (id: string) => toJob((await repository.load([id]))[0]!);

describe('refresh listings and the job lifecycle', () => {
  it('stages opened once when a job is made (any path), and nothing again on a redelivery', async () => {
    const c = company();
    const a = c.record('provider_a', 'Harbour Pilot');
    const [made] = await repository.mergeBatch([a]);
    await repository.mergeBatch([a]);
    await refresh.execute(c.listing('provider_a', [a]));
    const changes = await changesOf(made!.jobId);
    expect(changes.map((ch) => ch.change)).toEqual(['opened']);
    expect(changes[0]!.change_id).toBe(`chg_${made!.jobId}_1`);
    expect(changes[0]!.job).toMatchObject({ id: made!.jobId, status: 'open', title: 'Harbour Pilot' });
  });

  it('closes a job only when every source is absent from a complete listing, once, with reason unknown', async () => {
    const c = company();
    const a = c.record('provider_a', 'Canal Engineer');
    const b = c.record('provider_b', 'Canal Engineer');
    const [made] = await repository.mergeBatch([a, b]);
    const other = c.record('provider_a', 'Lock Keeper');
    await repository.mergeBatch([other]);

    await refresh.execute(c.listing('provider_a', [other]));
    expect((await jobOf(made!.jobId)).status).toBe('open'); // provider_b still lists it
    const sourceA = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: a.provider_job_id } });
    expect(sourceA.listed).toBe(false);

    const absent = c.listing('provider_b', []);
    await refresh.execute(absent);
    await refresh.execute(absent); // redelivery
    const job = await jobOf(made!.jobId);
    expect(job).toMatchObject({ status: 'closed', closed_reason: 'unknown' });
    expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual(['opened', 'closed']);
    const closed = (await changesOf(made!.jobId))[1]!;
    expect(closed.change_id).toBe(`chg_${made!.jobId}_2`);
    expect(closed.job.status).toBe('closed');
    expect((await jobOf((await repository.mergeBatch([other]))[0]!.jobId)).status).toBe('open');
  });

  it('an incomplete or failed listing closes nothing', async () => {
    const c = company();
    const a = c.record('provider_c', 'Tide Analyst');
    const [made] = await repository.mergeBatch([a]);
    await refresh.execute(c.listing('provider_c', [], { complete: false }));
    await refresh.execute(c.listing('provider_c', [], { outcome: 'provider_error', complete: false }));
    await refresh.execute(c.listing('provider_c', [], { outcome: 'provider_timeout', complete: false }));
    expect((await jobOf(made!.jobId)).status).toBe('open');
    expect((await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: a.provider_job_id } })).listed).toBe(
      true,
    );
    expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual(['opened']);
  });

  it(
    "a sweep's only part writes a sighting once it moves last_seen_at by the step, and judges only the listings " +
      'it did not see absent; a part of a longer sweep writes every sighting',
    async () => {
      const c = company();
      const kept = c.record('provider_a', 'Weir Surveyor');
      const gone = c.record('provider_a', 'Sluice Fitter', { seen_at: kept.seen_at });
      const [keptJob, goneJob] = await repository.mergeBatch([kept, gone]);
      const written = Date.parse(kept.seen_at);
      const at = (ms: number) => new Date(written + ms).toISOString();
      const sweep = (ms: number, over: Partial<RefreshRecordsFetched.Value> = {}) => ({
        ...c.listing('provider_a', [kept]),
        started_at: at(ms),
        fetched_at: at(ms),
        records: [{ ...kept, seen_at: at(ms) }],
        ...over,
      });
      const source = (r: NormalizedProviderRecord) =>
        db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: r.provider_job_id } });

      // re-read 20 s after its last written sighting: seen, not written, not absent
      await refresh.execute(sweep(20_000));
      expect((await source(kept)).lastSeenAt.toISOString()).toBe(kept.seen_at);
      expect((await source(kept)).listed).toBe(true);
      expect((await jobOf(keptJob!.jobId)).status).toBe('open');
      expect((await source(gone)).listed).toBe(false);
      expect((await jobOf(goneJob!.jobId)).status).toBe('closed');

      // a step after it: written
      await refresh.execute(sweep(SIGHTING_STEP_MS));
      expect((await source(kept)).lastSeenAt.toISOString()).toBe(at(SIGHTING_STEP_MS));

      // the first of two parts: written at once, within the step too (its last part judges absences)
      await refresh.execute(sweep(SIGHTING_STEP_MS + 5_000, { final: false }));
      await refresh.execute(sweep(SIGHTING_STEP_MS + 5_000, { part: 1, records: [] }));
      expect((await source(kept)).lastSeenAt.toISOString()).toBe(at(SIGHTING_STEP_MS + 5_000));
      expect((await source(kept)).listed).toBe(true);
      expect((await jobOf(keptJob!.jobId)).status).toBe('open');
    },
  );

  it(
    'a listings sweep re-verifies the listings it read by id at a company without a domain, and unlists only ' +
      'those of them it did not see',
    async () => {
      const c = company();
      const domainless = (title: string) =>
        c.record('provider_e', title, { company: { name: `Nameonly ${c.domain}`, domain: null } });
      const kept = domainless('Ferry Planner');
      const gone = domainless('Dock Inspector');
      const unread = domainless('Quay Clerk');
      const made = await repository.mergeBatch([kept, gone, unread]);
      const ids = [kept, gone].map((r) => r.provider_job_id);
      const listings = c.listing('provider_e', [kept], {
        kind: 'listings',
        scope: { key: `listings:${c.domain}`, filters: {}, listing_ids: ids },
      });
      await refresh.execute(listings);
      const listed = async (r: NormalizedProviderRecord) =>
        (await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: r.provider_job_id } })).listed;
      expect([await listed(kept), await listed(gone), await listed(unread)]).toEqual([true, false, true]);
      const statuses = await Promise.all(made.map(async (m) => (await jobOf(m.jobId)).status));
      expect(statuses).toEqual(['open', 'closed', 'open']);
      const seen = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: kept.provider_job_id } });
      expect(seen.lastSeenAt.toISOString()).toBe(listings.started_at);
    },
  );

  it('a closure the own crawler shows carries its reason; shown again, it rewrites nothing', async () => {
    const c = company();
    const own = c.record('own_index', 'Dock Master');
    const [made] = await repository.mergeBatch([own]);
    await refresh.execute(c.listing('own_index', [{ ...own, status: 'closed', closed_reason: 'filled' }]));
    expect(await jobOf(made!.jobId)).toMatchObject({ status: 'closed', closed_reason: 'filled' });
    const closed = (await changesOf(made!.jobId)).at(-1)!;
    expect(closed).toMatchObject({ change: 'closed', job: { closed_reason: 'filled' } });
    // every later round of the crawler shows the closed posting again: its row is left as it is
    const version = () =>
      db.prisma.$queryRaw<Array<{ xmin: string }>>`
        SELECT xmin::text FROM job_sources WHERE provider = 'own_index' AND provider_job_id = ${own.provider_job_id}`;
    const before = await version();
    await refresh.execute(c.listing('own_index', [{ ...own, status: 'closed', closed_reason: 'filled' }]));
    expect(await version()).toEqual(before);
    expect((await changesOf(made!.jobId)).at(-1)).toEqual(closed);
  });

  it(
    'keeps the crawler reason until the last source goes: closed ' + 'later by a partner listing, still removed',
    async () => {
      const c = company();
      const own = c.record('own_index', 'Net Mender');
      const partner = c.record('provider_a', 'Net Mender');
      const [made] = await repository.mergeBatch([own, partner]);
      await refresh.execute(c.listing('own_index', [{ ...own, status: 'closed', closed_reason: 'removed' }]));
      expect((await jobOf(made!.jobId)).status).toBe('open');
      await refresh.execute(c.listing('provider_a', []));
      expect(await jobOf(made!.jobId)).toMatchObject({ status: 'closed', closed_reason: 'removed' });
    },
  );

  it('a changed listing updates its job once, naming the fields; the same listing again changes nothing', async () => {
    const c = company();
    const a = c.record('provider_a', 'Quay Surveyor');
    const [made] = await repository.mergeBatch([a]);
    const raised = {
      ...a,
      salary: { min: 70_000, max: 80_000, currency: 'GBP', period: 'year' as const, origin: 'declared' as const },
      seniority: 'senior' as const,
    };
    await refresh.execute(c.listing('provider_a', [raised]));
    await refresh.execute(c.listing('provider_a', [raised]));
    const changes = await changesOf(made!.jobId);
    expect(changes.map((ch) => ch.change)).toEqual(['opened', 'updated']);
    expect(changes[1]!.changed_fields).toEqual(['seniority', 'salary']);
    expect(changes[1]!.previous).toEqual({ seniority: changes[0]!.job.seniority, salary: changes[0]!.job.salary });
    expect(changes[1]!.job.salary).toMatchObject({ min: 70_000, max: 80_000 });
    expect((await jobOf(made!.jobId)).seniority).toBe('senior');
  });

  it(
    'a closed job listed again under a new id is re-listed: same ' + 'id, open, repost_count up, reposted once',
    async () => {
      const c = company();
      const a = c.record('provider_a', 'Ferry Captain');
      const [made] = await repository.mergeBatch([a]);
      await refresh.execute(c.listing('provider_a', []));
      expect((await jobOf(made!.jobId)).status).toBe('closed');
      const { closedAt } = await db.prisma.canonicalJob.findUniqueOrThrow({ where: { id: made!.jobId } });
      const again = c.record('provider_a', 'Ferry Captain', { posted_at: '2026-11-20T15:00:00.000Z' });
      const [relisted] = await repository.mergeBatch([again]);
      await repository.mergeBatch([again]);
      expect(relisted).toEqual({ jobId: made!.jobId, merged: true, reposted: true });
      const job = await jobOf(made!.jobId);
      expect(job).toMatchObject({
        status: 'open',
        closed_reason: null,
        repost_count: 1,
        posted_at: '2026-11-20T15:00:00.000Z',
      });
      expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual(['opened', 'closed', 'reposted']);
      const row = await db.prisma.canonicalJob.findUniqueOrThrow({ where: { id: made!.jobId } });
      expect(row.closedAt).toBeNull();
      // the closing it ended, kept for the company's open jobs of a past day; the redelivery kept it
      expect(closedAt).not.toBeNull();
      expect(row.reopenedFrom).toEqual(closedAt);
      expect(row.reopenedAt).toEqual(new Date(again.seen_at));
    },
  );

  it('a re-listed job that closes again takes no reason from its earlier life', async () => {
    const c = company();
    const own = c.record('own_index', 'Lock Keeper');
    const partner = c.record('provider_a', 'Lock Keeper');
    const [made] = await repository.mergeBatch([own, partner]);
    await refresh.execute(c.listing('own_index', [{ ...own, status: 'closed', closed_reason: 'filled' }]));
    await refresh.execute(c.listing('provider_a', []));
    expect(await jobOf(made!.jobId)).toMatchObject({ status: 'closed', closed_reason: 'filled' });

    // the partner publishes the opening again under a new id: the job lives again
    const again = c.record('provider_a', 'Lock Keeper');
    expect(await repository.mergeBatch([again])).toMatchObject([{ jobId: made!.jobId, reposted: true }]);
    expect(await jobOf(made!.jobId)).toMatchObject({ status: 'open', repost_count: 1 });
    await refresh.execute(c.listing('provider_a', []));
    expect(await jobOf(made!.jobId)).toMatchObject({ status: 'closed', closed_reason: 'unknown' });
  });

  it("a partner's listing of a closed job seen again marks its source listed and leaves the job closed", async () => {
    const c = company();
    const a = c.record('provider_a', 'Lighthouse Keeper');
    const [made] = await repository.mergeBatch([a]);
    await refresh.execute(c.listing('provider_a', []));
    expect((await jobOf(made!.jobId)).status).toBe('closed');
    // its cache still serves the listing: no re-listing
    await refresh.execute(c.listing('provider_a', [a]));
    await repository.mergeBatch([{ ...a, seen_at: tick() }]);
    expect(await jobOf(made!.jobId)).toMatchObject({ status: 'closed', closed_reason: 'unknown', repost_count: 0 });
    expect((await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: a.provider_job_id } })).listed).toBe(
      true,
    );
    expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual(['opened', 'closed']);
  });

  it(
    "the own crawler's listing of a closed job seen again and a partner's new id of it in one batch " +
      're-list it once',
    async () => {
      const c = company();
      const own = c.record('own_index', 'Pontoon Welder');
      const [made] = await repository.mergeBatch([own]);
      await refresh.execute(c.listing('own_index', []));
      expect((await jobOf(made!.jobId)).status).toBe('closed');
      const partner = c.record('provider_b', 'Pontoon Welder');
      const results = await repository.mergeBatch([partner, { ...own, seen_at: tick() }]);
      expect(results).toEqual([
        { jobId: made!.jobId, merged: true, reposted: false },
        { jobId: made!.jobId, merged: false, reposted: true },
      ]);
      expect(await jobOf(made!.jobId)).toMatchObject({ status: 'open', closed_reason: null, repost_count: 1 });
      expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual(['opened', 'closed', 'reposted']);
      const sources = await db.prisma.jobSource.findMany({ where: { canonicalJobId: made!.jobId } });
      expect(sources.map((s) => [s.provider, s.listed, s.generation]).sort()).toEqual([
        ['own_index', true, 1],
        ['provider_b', true, 1],
      ]);
    },
  );

  it(
    'a closed job whose own-crawler listing is still marked listed (closed between its read and its write) ' +
      're-lists when that listing comes to the merge',
    async () => {
      const c = company();
      const own = c.record('own_index', 'Buoy Tender');
      const [made] = await repository.mergeBatch([own]);
      await refresh.execute(c.listing('own_index', []));
      await db.prisma.jobSource.updateMany({
        where: { providerJobId: own.provider_job_id },
        data: { listed: true, unlistedAt: null },
      });
      // changed at the employer: the listing takes the merge, its job is closed as locked
      const edited = { ...own, seniority: 'senior' as const, seen_at: tick() };
      await repository.mergeBatch([edited]);
      await repository.mergeBatch([edited]);
      expect(await jobOf(made!.jobId)).toMatchObject({ status: 'open', seniority: 'senior', repost_count: 1 });
      expect((await changesOf(made!.jobId)).map((ch) => ch.change)).toEqual([
        'opened',
        'closed',
        'reposted',
        'updated',
      ]);
    },
  );

  it('concurrent batches over the same companies all commit (no deadlock) and open each job once', async () => {
    const companies = [company(), company(), company()];
    const batches = Array.from({ length: 8 }, (_, b) =>
      companies
        .map((c, i) => c.record('provider_a', `Crane Operator ${b} ${i}`))
        .reverse()
        .slice(b % 2),
    );
    const results = await Promise.all(batches.map((batch) => repository.mergeBatch(batch)));
    const ids = [...new Set(results.flat().map((r) => r.jobId))];
    expect(ids.length).toBe(results.flat().length);
    for (const id of ids) expect((await changesOf(id)).map((ch) => ch.change)).toEqual(['opened']);
    for (const c of companies) expect((await hiringOf(c.domain)).map((h) => h.is_hiring.value)).toEqual([true]);
  });

  it(
    'stages company.hiring.changed when is_hiring moves: true ' +
      'when a job opens, false once all closed in complete listings',
    async () => {
      const c = company();
      const a = c.record('provider_a', 'Boat Builder');
      await repository.mergeBatch([a]);
      await refresh.execute(c.listing('provider_a', [a])); // still listed: no change
      expect((await hiringOf(c.domain)).map((h) => [h.previous, h.is_hiring.value])).toEqual([[null, true]]);
      await refresh.execute(c.listing('provider_a', [], { complete: false }));
      expect(await hiringOf(c.domain)).toHaveLength(1);
      await refresh.execute(c.listing('provider_a', []));
      const changes = await hiringOf(c.domain);
      expect(changes.map((h) => [h.previous, h.is_hiring.value])).toEqual([
        [null, true],
        [true, false],
      ]);
      expect(new Set(changes.map((h) => h.change_id)).size).toBe(2);
      expect(changes[1]!.company.domain).toBe(c.domain);
      expect(changes[1]!.is_hiring.basis).toMatch(/^No open jobs: all 1 known job closed/);
    },
  );
});
