// Two merge transactions at once, against the real PostgreSQL, each case held at the point where
// the two would collide without their locks' order: the first batch is stopped after it has locked
// a job (where it writes that job's listing's sighting, on a row the spec holds), the second runs
// until it waits on a lock, then the first goes on.
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository, type MergeResult } from './canonical-job.repository.js';
import { db, record, repository, useThrowawayRepository } from './canonical-job.repository.spec-helper.js';

useThrowawayRepository();

/** Waits until `count` backends of the spec's database wait on a lock; fails after 10 s. */
async function untilWaitingOnLocks(count: number): Promise<void> {
  for (const started = Date.now(); Date.now() - started < 10_000;) {
    const [row] = await db.prisma.$queryRaw<{ waiting: number }[]>`
      SELECT count(*)::int AS waiting FROM pg_stat_activity
      WHERE datname = current_database() AND wait_event_type = 'Lock'`;
    if (row!.waiting >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`fewer than ${count} backends waited on a lock within 10 s`);
}

/**
 * Merges `first` held where it writes the sighting of the stored listing `heldListing` (its job
 * locked by then), and `second` beside it until it waits on a lock; then lets both finish.
 */
async function mergeCrossing(
  heldListing: string,
  first: NormalizedProviderRecord[],
  second: NormalizedProviderRecord[],
): Promise<[MergeResult[], MergeResult[]]> {
  const other = new CanonicalJobRepository(new PrismaService(db.url, { poolSize: 2 }), outboxStub());
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holding!: Promise<void>;
  await new Promise<void>((held) => {
    holding = db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM job_sources WHERE provider_job_id = ${heldListing} FOR UPDATE`;
      held();
      await released;
    });
  });
  const firstMerge = repository.mergeBatch(first);
  await untilWaitingOnLocks(1);
  const secondMerge = other.mergeBatch(second);
  await untilWaitingOnLocks(2);
  release();
  await holding;
  const firstResults = await firstMerge;
  return [firstResults, await secondMerge];
}

it('a batch renaming a company and one holding its job, both making another company, both commit', async () => {
  const yew = { name: 'Yew', domain: 'yew.example' };
  const xylo = { name: 'Xylo Ltd', domain: 'xylo.example' };
  const analyst = record({ provider: 'provider_f', provider_job_id: 'yew-1', title: 'Yew Analyst', company: yew });
  const [stored] = await repository.mergeBatch([analyst]);

  const [holding, renaming] = await mergeCrossing(
    'yew-1',
    // the analyst's listing changed (its job locked first), and a job at a new company
    [
      { ...analyst, salary: { min: 40_000, max: 48_000, currency: 'GBP', period: 'year', origin: 'declared' } },
      record({ provider: 'provider_f', title: 'Xylo Engineer', company: xylo, apply_url: 'https://xylo.example/e' }),
    ],
    // a job at the same new company, and the own crawler naming the first company better
    [
      record({ provider: 'provider_c', title: 'Xylo Designer', company: xylo, apply_url: 'https://xylo.example/d' }),
      record({
        provider: 'own_index',
        title: 'Yew Platform Lead',
        company: { name: 'Yew Group', domain: yew.domain },
        apply_url: 'https://yew.example/lead',
      }),
    ],
  );

  expect(holding[0]!.jobId).toBe(stored!.jobId);
  expect(await db.prisma.company.count({ where: { domain: xylo.domain } })).toBe(1);
  const xyloJobs = await db.prisma.canonicalJob.findMany({
    where: { id: { in: [holding[1]!.jobId, renaming[0]!.jobId] } },
    select: { company: { select: { domain: true } } },
  });
  expect(xyloJobs.map((j) => j.company.domain)).toEqual([xylo.domain, xylo.domain]);
  expect((await db.prisma.company.findUnique({ where: { domain: yew.domain } }))!.name).toBe('Yew Group');
});

it('two batches showing one new listing under different titles and companies make one job of it', async () => {
  // provider_e's listing as one read shows it: no apply URL, no domain
  const listing = (id: string, title: string, company: string, more: Partial<NormalizedProviderRecord> = {}) =>
    record({
      provider: 'provider_e',
      provider_job_id: id,
      title,
      company: { name: company, domain: null },
      apply_url: null,
      ...more,
    });
  // a sparse new listing the two batches read apart: its title and company name changed between
  // their reads, so they share no blocking key
  const sparse = (title: string, company: string) => listing('lamp-1', title, company, { description: null });
  // each batch also shows a stored listing, which it locks before it stores the new one; it too
  // changed between the reads, so the batches share no lock on it either but its job's
  const kiln = (title: string, company: string) => listing('kiln-1', title, company);
  await repository.mergeBatch([kiln('Kiln Operator', 'Kiln Works')]);

  const [first, second] = await mergeCrossing(
    'kiln-1',
    [kiln('Kiln Technician', 'Kiln Works'), sparse('Lamp Fitter', 'Lux One')],
    [kiln('Kiln Supervisor', 'Kilnworks Studio'), sparse('Lighting Engineer', 'Lumen Two')],
  );

  expect(second[1]!.jobId).toBe(first[1]!.jobId);
  expect(await db.prisma.jobSource.count({ where: { providerJobId: 'lamp-1' } })).toBe(1);
});
