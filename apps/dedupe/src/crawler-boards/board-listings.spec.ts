// Integration test against the real PostgreSQL: one board's listings among boards whose names share a beginning.
import {
  db,
  record,
  repository,
  useThrowawayRepository,
} from '../canonical-jobs/canonical-job.repository.spec-helper.js';
import { ofBoard } from './board-listings.js';

useThrowawayRepository();

it("keeps exactly one board's listings, whatever the other boards' names", async () => {
  const boards = ['acme', 'acme-eu', 'acme.io', 'acme_x', 'acmeco', 'acm'];
  await repository.mergeBatch(
    boards.flatMap((board, i) =>
      [1, 2].map((n) =>
        record({
          provider: 'own_index',
          provider_job_id: `greenhouse:${board}:${n}`,
          title: `Engineer ${i} ${n}`,
          apply_url: `https://boards.example/${board}/${n}`,
        }),
      ),
    ),
  );
  for (const board of boards) {
    const rows = await db.prisma.$queryRaw<{ id: string }[]>`
      SELECT s.provider_job_id AS id FROM job_sources s WHERE ${ofBoard(`greenhouse:${board}:`)} ORDER BY 1`;
    expect(rows.map((r) => r.id)).toEqual([`greenhouse:${board}:1`, `greenhouse:${board}:2`]);
  }
});
