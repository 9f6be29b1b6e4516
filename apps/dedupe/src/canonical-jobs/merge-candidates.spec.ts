// The lookup of a merge's candidate jobs against the real PostgreSQL: which jobs it finds, and
// that it reads them by index, not by a read of the whole store.
import { planNodes } from '@jobs/db/testing';
import { blockingKey, normalizeCompanyName } from '@jobs/matching';
import { db, record, repository, useThrowawayRepository } from './canonical-job.repository.spec-helper.js';
import { candidateIds, candidates } from './merge-candidates.js';

useThrowawayRepository();

describe('merge candidates', () => {
  it('finds the jobs under a key, under a legacy blocking key and by id, oldest first', async () => {
    // first seen a minute apart: the order is theirs, not their ids'
    const opening = (title: string, n: number) =>
      record({
        title,
        apply_url: `https://northwind.example/careers/${n}`,
        seen_at: new Date(Date.UTC(2026, 10, 20, 12, n)).toISOString(),
      });
    const byKey = await repository.mergeListings([opening('Data Engineer', 1)]);
    const legacyOne = await repository.mergeListings([opening('Payroll Clerk', 2)]);
    const byId = await repository.mergeListings([opening('Site Reliability Engineer', 3)]);
    const [keyed, legacy, named] = [byKey, legacyOne, byId].map((m) => m.rows[0]!.id);
    // a job stored before multi-key blocking: no keys, its one legacy key in its column
    const legacyKey = blockingKey(`name:${normalizeCompanyName('Northwind Ltd')}`, 'Payroll Clerk', 'GB');
    await db.prisma.$executeRaw`DELETE FROM canonical_job_keys WHERE canonical_job_id = ${legacy}`;
    await db.prisma.$executeRaw`UPDATE canonical_jobs SET blocking_key = ${legacyKey} WHERE id = ${legacy}`;
    const [aKey] = await db.prisma.$queryRaw<Array<{ key: string }>>`
      SELECT key FROM canonical_job_keys WHERE canonical_job_id = ${keyed} LIMIT 1`;

    const found = await db.prisma.$transaction((tx) =>
      candidates(tx, [aKey!.key, 'n:nobody|nothing|GB'], [opening('Payroll Clerk', 4)], [named!, 'job_missing']),
    );
    expect(found.map((job) => job.id)).toEqual([keyed, legacy, named]);
    expect(found[0]!.keys.map((k) => k.key)).toContain(aKey!.key);
    expect(found[2]!.sources).toHaveLength(1);
  });

  it('reads canonical_jobs by index however large the store is', async () => {
    await db.prisma.$executeRaw`
      INSERT INTO companies (id, name, name_key) SELECT 'cmp_bulk', 'Bulk', 'bulk' WHERE NOT EXISTS (
        SELECT 1 FROM companies WHERE id = 'cmp_bulk')`;
    await db.prisma.$executeRaw`
      INSERT INTO canonical_jobs (id, company_id, title, normalized_title, title_search, country_code, blocking_key,
        p_real, first_seen_at, last_seen_at, updated_at)
      SELECT 'job_bulk_' || g, 'cmp_bulk', 'Bulk ' || g, 'bulk ' || g, ' bulk ' || g, 'GB', 'bulk|' || g || '|GB',
        0.9, now(), now(), now()
      FROM generate_series(1, 20000) g`;
    await db.prisma.$executeRaw`
      INSERT INTO canonical_job_keys (key, canonical_job_id) SELECT 'n:bulk|' || g || '|GB', 'job_bulk_' || g
      FROM generate_series(1, 20000) g`;
    await db.prisma.$executeRaw`ANALYZE canonical_jobs`;
    await db.prisma.$executeRaw`ANALYZE canonical_job_keys`;

    const plan = await planNodes(
      db.prisma,
      candidateIds(['n:bulk|7|GB', 'n:bulk|8|GB'], ['bulk|9|GB'], ['job_bulk_10']),
    );
    const storeReads = plan.filter(
      (node) => node['Relation Name'] === 'canonical_jobs' || node['Relation Name'] === 'canonical_job_keys',
    );
    expect(storeReads.length).toBeGreaterThan(0);
    expect(storeReads.map((node) => node['Node Type'])).not.toContain('Seq Scan');
  }, 60_000);
});
