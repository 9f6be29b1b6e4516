// Integration test against the real PostgreSQL: sightings of listings dedupe already stores,
// written in bulk by CanonicalJobRepository.
import { jest } from '@jest/globals';
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { PrismaService, type Prisma } from '@jobs/db';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import {
  db,
  jobOf,
  mergeAndSight,
  record,
  repository,
  useThrowawayRepository,
} from './canonical-job.repository.spec-helper.js';
import { toJob } from './job-view.js';
import { findSightings, recordUnchangedSightings } from './sightings.js';

useThrowawayRepository();

/** `count` listings of one provider at Northwind, each its own opening (`<name>-<i>`, "<Title> Role <i>"). */
const listingsOf = (
  provider: NormalizedProviderRecord['provider'],
  name: string,
  title: string,
  count: number,
  patch: Partial<NormalizedProviderRecord> = {},
) =>
  Array.from({ length: count }, (_, i) =>
    record({
      provider,
      provider_job_id: `${name}-${i}`,
      title: `${title} Role ${i}`,
      apply_url: `https://northwind.example/careers/${name}-${i}`,
      ...patch,
    }),
  );

describe('CanonicalJobRepository sightings of known listings', () => {
  it(
    'records sightings of known listings in bulk: last sighting ' +
      'wins, only the crawler verifies, an unlisted source is ' +
      'listed again',
    async () => {
      const domain = { name: 'Sightings Ltd', domain: 'sightings.example' };
      const apply = 'https://sightings.example/careers/1';
      const other = 'https://sightings.example/careers/2';
      const a = record({ company: domain, apply_url: apply });
      const own = record({ provider: 'own_index', company: domain, apply_url: apply });
      const b = record({ provider: 'provider_b', company: domain, apply_url: other, title: 'Data Engineer' });
      const [ja, , jb] = await repository.mergeBatch([a, own, b]);
      await db.prisma.jobSource.updateMany({
        where: { providerJobId: a.provider_job_id },
        data: { listed: false, unlistedAt: new Date('2026-11-20T12:30:00.000Z') },
      });
      // one batch: the crawler sees the first job, then provider_a later (not a verification)
      await repository.mergeBatch([
        { ...own, seen_at: '2026-11-21T08:00:00.000Z' },
        { ...a, seen_at: '2026-11-21T09:00:00.000Z' },
        { ...b, seen_at: '2026-11-21T07:00:00.000Z' },
      ]);
      const first = await jobOf(ja!.jobId);
      const second = await jobOf(jb!.jobId);
      expect(first.last_seen_at).toBe('2026-11-21T09:00:00.000Z');
      expect(first.last_verified_at).toBe('2026-11-21T08:00:00.000Z');
      expect(second.last_seen_at).toBe('2026-11-21T07:00:00.000Z');
      expect(second.last_verified_at).toBeNull();
      const sourceA = await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: a.provider_job_id } });
      expect(sourceA).toMatchObject({
        listed: true,
        unlistedAt: null,
        lastSeenAt: new Date('2026-11-21T09:00:00.000Z'),
      });
      expect(Object.keys(sourceA.fieldHashes as object).length).toBeGreaterThan(0);
    },
  );

  it(
    "a search's rows show its sightings of known listings before " + 'they are written, as the write leaves them',
    async () => {
      const listings = listingsOf('provider_c', 'shown', 'Shown', 3, { seen_at: '2026-11-20T12:00:00.000Z' });
      const first = await mergeAndSight(repository, listings);
      const ids = first.rows.map((row) => row.id);
      // seen again, unchanged; the own crawler confirms the first one; one listing twice, its later sighting first
      const again = [
        { ...listings[0]!, seen_at: '2026-11-22T09:00:00.000Z' },
        { ...listings[1]!, seen_at: '2026-11-22T10:00:00.000Z' },
        { ...listings[1]!, seen_at: '2026-11-22T08:00:00.000Z' },
        record({
          provider: 'own_index',
          provider_job_id: 'shown-own-0',
          title: 'Shown Role 0',
          apply_url: 'https://northwind.example/careers/shown-0',
          seen_at: '2026-11-20T12:00:00.000Z',
        }),
      ];
      await mergeAndSight(repository, [again[3]!]);
      const second = await repository.mergeListings(again);
      // every record met a job the store had: four records merged into existing jobs
      expect(second.merged).toBe(4);
      expect(second.outcomes.map((o) => o?.merged)).toEqual([true, true, true, true]);
      const shown = second.rows.map(toJob);
      expect(shown.map((j) => j.id)).toEqual(ids.slice(0, 2));
      expect(shown[0]!.last_seen_at).toBe('2026-11-22T09:00:00.000Z');
      expect(shown[1]!.last_seen_at).toBe('2026-11-22T10:00:00.000Z');
      expect(shown[0]!.sources.find((s) => s.provider === 'provider_c')!.last_seen_at).toBe('2026-11-22T09:00:00.000Z');
      expect(shown[0]!.last_verified_at).toBe('2026-11-20T12:00:00.000Z');
      // not written yet: the store still holds the first sightings
      expect((await jobOf(ids[1]!)).last_seen_at).toBe('2026-11-20T12:00:00.000Z');
      await second.writeSightings();
      expect((await repository.load(ids.slice(0, 2))).map(toJob)).toEqual(shown);
      // an older sighting written late moves nothing back
      await (
        await repository.mergeListings([{ ...listings[1]!, seen_at: '2026-11-21T00:00:00.000Z' }])
      ).writeSightings();
      expect((await jobOf(ids[1]!)).last_seen_at).toBe('2026-11-22T10:00:00.000Z');
    },
  );

  it(
    "a search's sighting within a minute of the listing's last written one is neither written nor shown; " +
      'a later one is, and a source no longer listed is listed again at once',
    async () => {
      const listings = listingsOf('provider_a', 'step', 'Step', 2, { seen_at: '2026-11-20T12:00:00.000Z' });
      const ids = (await mergeAndSight(repository, listings)).rows.map((row) => row.id);
      await db.prisma.jobSource.updateMany({
        where: { providerJobId: 'step-1' },
        data: { listed: false, unlistedAt: new Date('2026-11-20T12:00:10.000Z') },
      });
      const sent = jest.spyOn(db.prisma.direct, '$executeRaw');
      // 59 s later: the listed one is recent (resolved, not written); the unlisted one is listed again
      const soon = await mergeAndSight(
        repository,
        listings.map((l) => ({ ...l, seen_at: '2026-11-20T12:00:59.000Z' })),
      );
      expect(soon.outcomes.map((o) => o?.jobId)).toEqual(ids);
      expect(soon.merged).toBe(2);
      const [, sourceIds] = sent.mock.calls.at(-1)! as unknown as [unknown, string[]];
      expect(sourceIds).toHaveLength(1);
      expect(soon.rows.map(toJob).map((j) => j.last_seen_at)).toEqual([
        '2026-11-20T12:00:00.000Z',
        '2026-11-20T12:00:59.000Z',
      ]);
      expect((await jobOf(ids[0]!)).last_seen_at).toBe('2026-11-20T12:00:00.000Z');
      expect(
        await db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: 'step-1' }, select: { listed: true } }),
      ).toEqual({ listed: true });
      // a minute after the last written sighting: written and shown
      sent.mockClear();
      const later = await mergeAndSight(
        repository,
        listings.map((l) => ({ ...l, seen_at: '2026-11-20T12:01:00.000Z' })),
      );
      expect(sent).toHaveBeenCalledTimes(1);
      expect(later.rows.map(toJob)[0]!.last_seen_at).toBe('2026-11-20T12:01:00.000Z');
      expect((await jobOf(ids[0]!)).last_seen_at).toBe('2026-11-20T12:01:00.000Z');
      sent.mockRestore();
    },
  );

  it(
    'an own-crawler listing no longer listed takes the merge, which re-lists its closed job; an unchanged sighting ' +
      'of one unlisted since its read leaves it to that merge',
    async () => {
      const own = listingsOf('own_index', 'gone', 'Gone', 1, { seen_at: '2026-11-20T12:00:00.000Z' })[0]!;
      const [made] = await repository.mergeBatch([own]);
      const seen = { ...own, seen_at: '2026-11-20T12:05:00.000Z' };
      const read = await findSightings(db.prisma.direct, [seen]);
      expect(read.sightings).toHaveLength(1);
      // closed between the read and its write
      await db.prisma.jobSource.updateMany({
        where: { providerJobId: own.provider_job_id },
        data: { listed: false, unlistedAt: new Date('2026-11-20T12:04:00.000Z') },
      });
      await db.prisma.canonicalJob.update({
        where: { id: made!.jobId },
        data: { status: 'closed', closedReason: 'unknown', closedAt: new Date('2026-11-20T12:04:00.000Z') },
      });
      await recordUnchangedSightings(db.prisma.direct, read.sightings);
      const source = () => db.prisma.jobSource.findFirstOrThrow({ where: { providerJobId: own.provider_job_id } });
      expect(await source()).toMatchObject({ listed: false, lastSeenAt: new Date(own.seen_at) });
      // the next read: no longer listed, so merged, and its job re-listed
      const next = { ...own, seen_at: '2026-11-20T12:10:00.000Z' };
      expect((await findSightings(db.prisma.direct, [next])).rest).toEqual([next]);
      const merged = await mergeAndSight(repository, [next]);
      expect(merged.outcomes).toEqual([{ jobId: made!.jobId, merged: true }]);
      expect(await jobOf(made!.jobId)).toMatchObject({ status: 'open', closed_reason: null, repost_count: 1 });
      expect(await source()).toMatchObject({ listed: true, generation: 1 });
    },
  );

  it(
    'two waves sighting the same known listings in opposite ' +
      'orders both succeed (sightings take their rows in id order)',
    async () => {
      const otherPrisma = new PrismaService(db.url, { poolSize: 2 });
      await otherPrisma.$connect(); // as a service's module init does (and ends its pool on $disconnect)
      const other = new CanonicalJobRepository(otherPrisma, outboxStub());
      const listings = listingsOf('provider_e', 'sighted', 'Sighted', 400, { description: null });
      await mergeAndSight(repository, listings);
      for (let round = 1; round <= 12; round++) {
        // the same listings unchanged, seen later: sightings only, written by both waves at once
        const seenAt = new Date(Date.UTC(2026, 10, 21, 0, round)).toISOString();
        const seen = listings.map((l) => ({ ...l, seen_at: seenAt }));
        const [up, down] = await Promise.all([
          mergeAndSight(repository, seen),
          mergeAndSight(other, [...seen].reverse()),
        ]);
        expect(up.merged + down.merged).toBe(2 * listings.length);
      }
      const rows = await db.prisma.jobSource.findMany({
        where: { provider: 'provider_e', providerJobId: { startsWith: 'sighted-' } },
        select: { lastSeenAt: true },
      });
      expect(new Set(rows.map((r) => r.lastSeenAt.toISOString()))).toEqual(new Set(['2026-11-21T00:12:00.000Z']));
      await otherPrisma.$disconnect();
      // A small table is planned as a hash join (one lock order whatever the arrays say), so the
      // race above rarely meets; the store's size gets an index loop in the arrays' order. The rule
      // itself: the sources and the jobs go in ascending id order, however the wave listed them.
      const sent = jest.spyOn(db.prisma.direct, '$executeRaw');
      const later = listings.map((l) => ({ ...l, seen_at: '2026-11-21T01:00:00.000Z' })).reverse();
      await mergeAndSight(repository, later);
      const [, sourceIds, , jobs] = sent.mock.calls.at(-1)! as unknown as [unknown, string[], unknown, Prisma.Sql];
      const jobIds = jobs.values[0] as string[];
      expect(sourceIds).toHaveLength(400);
      expect(sourceIds).toEqual([...sourceIds].sort());
      expect(jobIds).toHaveLength(400);
      expect(jobIds).toEqual([...jobIds].sort());
      sent.mockRestore();
    },
  );
});
