// Two merge transactions that meet one company, against the real PostgreSQL: one makes a company
// the other also makes, while the other renames a company whose job the first holds.
import { PrismaService } from '@jobs/db';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from './canonical-job.repository.js';
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

it('a batch renaming a company and one holding its job, both making another company, both commit', async () => {
  const yew = { name: 'Yew', domain: 'yew.example' };
  const xylo = { name: 'Xylo Ltd', domain: 'xylo.example' };
  const analyst = record({ provider: 'provider_f', provider_job_id: 'yew-1', title: 'Yew Analyst', company: yew });
  const [stored] = await repository.mergeBatch([analyst]);

  // the first batch: the analyst's listing changed (its job locked first), and a job at a new company
  const holding = [
    { ...analyst, salary: { min: 40_000, max: 48_000, currency: 'GBP', period: 'year', origin: 'declared' } as const },
    record({ provider: 'provider_f', title: 'Xylo Engineer', company: xylo, apply_url: 'https://xylo.example/e' }),
  ];
  // the second: a job at the same new company, and the own crawler naming the first company better
  const renaming = [
    record({ provider: 'provider_c', title: 'Xylo Designer', company: xylo, apply_url: 'https://xylo.example/d' }),
    record({
      provider: 'own_index',
      title: 'Yew Platform Lead',
      company: { name: 'Yew Group', domain: yew.domain },
      apply_url: 'https://yew.example/lead',
    }),
  ];
  const other = new CanonicalJobRepository(new PrismaService(db.url, { poolSize: 2 }), outboxStub());

  // the first batch is held after it has locked the analyst's job, where it writes its listing's sighting
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let holdingSource!: Promise<void>;
  const sourceHeld = new Promise<void>((held) => {
    holdingSource = db.prisma.$transaction(async (tx) => {
      await tx.$queryRaw`SELECT id FROM job_sources WHERE provider_job_id = 'yew-1' FOR UPDATE`;
      held();
      await released;
    });
  });
  await sourceHeld;
  const first = repository.mergeBatch(holding);
  await untilWaitingOnLocks(1);
  const second = other.mergeBatch(renaming);
  await untilWaitingOnLocks(2);
  release();
  await holdingSource;

  const [firstResults, secondResults] = await Promise.all([first, second]);
  expect(firstResults[0]!.jobId).toBe(stored!.jobId);
  expect(await db.prisma.company.count({ where: { domain: xylo.domain } })).toBe(1);
  const xyloJobs = await db.prisma.canonicalJob.findMany({
    where: { id: { in: [firstResults[1]!.jobId, secondResults[0]!.jobId] } },
    select: { company: { select: { domain: true } } },
  });
  expect(xyloJobs.map((j) => j.company.domain)).toEqual([xylo.domain, xylo.domain]);
  expect((await db.prisma.company.findUnique({ where: { domain: yew.domain } }))!.name).toBe('Yew Group');
});
