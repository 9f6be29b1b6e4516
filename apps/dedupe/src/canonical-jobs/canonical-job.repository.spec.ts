// Integration test against the real PostgreSQL: canonical jobs as dedupe stores them (the
// sightings of known listings: sightings.spec.ts).
import type { NormalizedProviderRecord } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from './canonical-job.repository.js';
import { db, jobOf, record, repository, useThrowawayRepository } from './canonical-job.repository.spec-helper.js';
import { toJob, type JobSourceView } from './job-view.js';

useThrowawayRepository();

describe('CanonicalJobRepository', () => {
  it(
    'merges one opening seen by three providers into one job with ' + 'provenance, and corroboration raises p_real',
    async () => {
      const a = record();
      const [first] = await repository.mergeBatch([a]);
      const single = await jobOf(first!.jobId);
      const [b] = await repository.mergeBatch([
        record({
          provider: 'provider_b',
          title: 'Platform Engineer (m/f/d)',
          salary: null,
          seen_at: '2026-11-20T13:00:00.000Z',
        }),
      ]);
      const [own] = await repository.mergeBatch([
        record({ provider: 'own_index', seen_at: '2026-11-20T14:00:00.000Z' }),
      ]);
      expect(b).toEqual({ jobId: first!.jobId, merged: true, reposted: false });
      expect(own!.jobId).toBe(first!.jobId);
      const job = await jobOf(first!.jobId);
      expect(job.sources.map((s) => s.provider)).toEqual(['provider_a', 'provider_b', 'own_index']);
      // the providers that saw it, as bits (own_index 1, provider_a 2, provider_b 4): grown batch by batch
      expect((await db.prisma.canonicalJob.findUniqueOrThrow({ where: { id: first!.jobId } })).seenBy).toBe(1 | 2 | 4);
      expect(job.sources[1]!.fields).not.toContain('salary');
      expect(job.sources[0]!.fields).toEqual(expect.arrayContaining(['title', 'salary', 'description', 'apply_url']));
      expect(job.p_real).toBeGreaterThan(single.p_real);
      expect(job.first_seen_at).toBe('2026-11-20T12:00:00.000Z');
      expect(job.last_seen_at).toBe('2026-11-20T14:00:00.000Z');
      // only the own crawler confirms a job live at its origin
      expect(single.last_verified_at).toBeNull();
      expect(job.last_verified_at).toBe('2026-11-20T14:00:00.000Z');
    },
  );

  it(
    'keeps ids stable across restarts: a new repository on the ' +
      'same database answers the same job for a known listing',
    async () => {
      const a = record({ title: 'Site Reliability Engineer', apply_url: 'https://northwind.example/careers/sre-1' });
      const [first] = await repository.mergeBatch([a]);
      const restarted = new CanonicalJobRepository(new PrismaService(db.url, { poolSize: 2 }), outboxStub());
      const [again] = await restarted.mergeBatch([{ ...a, seen_at: '2026-11-21T09:00:00.000Z' }]);
      expect(again).toEqual({ jobId: first!.jobId, merged: false, reposted: false });
      expect((await jobOf(first!.jobId)).last_seen_at).toBe('2026-11-21T09:00:00.000Z');
    },
  );

  it('counts a re-listing under a new id as a repost of the same job, once, whatever provider brings it', async () => {
    const opening = { title: 'Data Platform Engineer', apply_url: 'https://northwind.example/careers/dpe-7' };
    const [first] = await repository.mergeBatch([record(opening), record({ ...opening, provider: 'provider_c' })]);
    const LATER = '2026-11-18T08:30:00.000Z';
    const [relisted, sameRelisting] = await repository.mergeBatch([
      record({ ...opening, posted_at: LATER, seen_at: '2026-11-21T10:00:00.000Z' }),
      record({ ...opening, provider: 'provider_c', posted_at: LATER, seen_at: '2026-11-21T10:00:00.000Z' }),
    ]);
    expect(relisted).toEqual({ jobId: first!.jobId, merged: true, reposted: true });
    expect(sameRelisting).toMatchObject({ jobId: first!.jobId, reposted: false });
    const job = await jobOf(first!.jobId);
    expect(job.repost_count).toBe(1);
    expect(job.posted_at).toBe(LATER);
    expect(job.status).toBe('open');
    expect(job.sources).toHaveLength(4);
  });

  it(
    "a bare opening's new id at a provider re-lists it, counted once across providers and transactions, " +
      'unless the same read shows the earlier id live',
    async () => {
      const bare = (o: Partial<NormalizedProviderRecord>) =>
        record({
          title: 'Bare Site Supervisor',
          location: { city: null, region: null, country_code: null, remote: null },
          employment_type: null,
          seniority: null,
          job_family: null,
          salary: null,
          description: null,
          apply_url: null,
          ...o,
        });
      const own = bare({ provider: 'own_index' });
      const partner = bare({});
      const [first] = await repository.mergeBatch([own, partner]);
      // the own crawler shows it again under a new id, minutes later: a re-listing
      const relistedAt = '2026-11-02T10:03:00.000Z';
      const [again] = await repository
        .mergeListings([bare({ provider: 'own_index', posted_at: relistedAt })])
        .then((m) => m.outcomes);
      expect(again!.jobId).toBe(first!.jobId);
      // provider_a shows the same re-listing later, in a part of a read of its own: no second repost
      await repository.mergeRefreshPart([bare({ posted_at: relistedAt })], {
        provider: 'provider_a',
        filters: {},
        closed: [],
        since: new Date('2026-11-20T12:00:00.000Z'),
        judgeAbsences: false,
        at: new Date('2026-11-20T12:00:05.000Z'),
      });
      const job = await jobOf(first!.jobId);
      expect(job.repost_count).toBe(1);
      expect(job.sources).toHaveLength(4);
      // a new id shown beside the earlier one, live in the same read: another opening
      const [beside] = await repository.mergeListings([bare({ provider: 'own_index' }), own]).then((m) => m.outcomes);
      expect(beside!.jobId).not.toBe(first!.jobId);
      expect((await jobOf(first!.jobId)).repost_count).toBe(1);
    },
  );

  it('makes one job when two replicas merge the same opening at the same moment', async () => {
    const opening = { title: 'Security Engineer', apply_url: 'https://northwind.example/careers/sec-3' };
    const other = new CanonicalJobRepository(new PrismaService(db.url, { poolSize: 2 }), outboxStub());
    const [x, y] = await Promise.all([
      repository.mergeBatch([record({ ...opening, provider: 'provider_d' })]),
      other.mergeBatch([record({ ...opening, provider: 'provider_e' })]),
    ]);
    expect(x![0]!.jobId).toBe(y![0]!.jobId);
    expect(await db.prisma.canonicalJob.count({ where: { title: 'Security Engineer' } })).toBe(1);
  });

  it(
    'two batches meeting the same new companies in opposite ' + 'orders both commit (companies are made in one order)',
    async () => {
      const other = new CanonicalJobRepository(new PrismaService(db.url, { poolSize: 2 }), outboxStub());
      const companies = Array.from({ length: 6 }, (_, i) => ({
        name: `Crossing ${i} Ltd`,
        domain: `crossing-${i}.example`,
      }));
      // different openings (no blocking key in common, so no advisory lock orders the two batches)
      const opening = (i: number, provider: NormalizedProviderRecord['provider']) =>
        record({
          provider,
          company: companies[i]!,
          title: `${provider} Crossing Role ${i}`,
          apply_url: `https://crossing-${i}.example/jobs/${provider}`,
          description: null,
        });
      for (let round = 0; round < 5; round++) {
        // fresh companies each round, met in ascending order by one batch and descending by the other
        companies.forEach((c, i) => Object.assign(c, { domain: `crossing-${round}-${i}.example` }));
        const up = companies.map((_, i) => opening(i, 'provider_c'));
        const down = companies.map((_, i) => opening(i, 'provider_f')).reverse();
        await expect(Promise.all([repository.mergeBatch(up), other.mergeBatch(down)])).resolves.toHaveLength(2);
      }
      expect(await db.prisma.company.count({ where: { domain: { startsWith: 'crossing-' } } })).toBe(30);
    },
  );

  it(
    'loads jobs with their company and sources in one statement, ' +
      "as Prisma's include reads what the view shows, in the order " +
      'asked',
    async () => {
      const rows = { name: 'Rows Co', domain: 'rows.example' };
      const [first] = await repository.mergeBatch([
        record({ provider: 'provider_b', provider_job_id: 'rows-1', title: 'Rows Engineer', company: rows }),
        record({ provider: 'provider_c', provider_job_id: 'rows-2', title: 'Rows Engineer', company: rows }),
      ]);
      const [second] = await repository.mergeBatch([
        record({
          provider_job_id: 'rows-3',
          title: 'Rows Analyst',
          company: { name: 'Rowan', domain: null },
          location: { city: 'York', region: null, country_code: 'GB', remote: false },
        }),
      ]);
      const ids = [second!.jobId, 'job_missing', first!.jobId];
      const viaPrisma = await db.prisma.canonicalJob.findMany({
        where: { id: { in: ids } },
        include: { company: true, sources: true },
      });
      const loaded = await repository.load(ids);
      expect(loaded.map((row) => row.id)).toEqual([second!.jobId, first!.jobId]);
      const byId = new Map(viaPrisma.map((row) => [row.id, row]));
      for (const row of loaded) {
        const expected = byId.get(row.id)!;
        const bySource = (a: JobSourceView, b: JobSourceView) =>
          `${a.provider}:${a.providerJobId}`.localeCompare(`${b.provider}:${b.providerJobId}`);
        const { company, sources, ...job } = row;
        // every column the row carries is the stored one, and the view of the row is the view of the whole stored job
        expect(job).toEqual(
          Object.fromEntries(Object.keys(job).map((key) => [key, expected[key as keyof typeof expected]])),
        );
        expect(company).toEqual({
          id: expected.company.id,
          name: expected.company.name,
          domain: expected.company.domain,
        });
        expect([...sources].sort(bySource)).toEqual(
          [...expected.sources].sort(bySource).map((s) => ({
            provider: s.provider,
            providerJobId: s.providerJobId,
            url: s.url,
            firstSeenAt: s.firstSeenAt,
            lastSeenAt: s.lastSeenAt,
            fields: s.fields,
          })),
        );
        expect(toJob(row)).toEqual(toJob(expected));
      }
      expect(loaded.map((row) => row.sources.length)).toEqual([1, 2]);
      expect(loaded.map((row) => row.company.domain)).toEqual([null, 'rows.example']);
      expect(loaded[1]!.firstSeenAt).toBeInstanceOf(Date);
    },
  );

  describe('fields ranked by source, whatever the arrival order', () => {
    /** One opening (seniority lead) as four sources show it: provider_a's vocabulary has only "Mid-Senior level". */
    const opening = (
      provider: NormalizedProviderRecord['provider'],
      overrides: Partial<NormalizedProviderRecord> = {},
    ) =>
      record({
        provider,
        title: 'Staff Data Lead',
        company: { name: 'Rankwise', domain: 'rankwise.example' },
        apply_url: 'https://rankwise.example/careers/lead-1',
        seniority: 'lead',
        ...overrides,
      });
    const lifecycleOf = async (jobId: string) =>
      (
        await db.prisma.outboxMessage.findMany({
          where: { topic: 'job.lifecycle.changed', key: jobId },
          orderBy: { id: 'asc' },
        })
      ).map(
        (m) => JSON.parse(m.value) as { change: string; changed_fields: string[]; job: { seniority: string | null } },
      );

    it(
      'stores lead, not the senior of the lossy partner that ' +
        'answered first, and publishes the correction as job.updated',
      async () => {
        const [a] = await repository.mergeBatch([opening('provider_a', { seniority: 'senior', lossy: ['seniority'] })]);
        expect((await jobOf(a!.jobId)).seniority).toBe('senior');
        // an exact partner arrives later: its value wins, and readers of the job are told
        await repository.mergeBatch([opening('provider_d')]);
        const afterD = await jobOf(a!.jobId);
        expect(afterD.seniority).toBe('lead');
        // the crawler confirms the same value: its source now decides the field, nothing public changed
        await repository.mergeBatch([opening('own_index'), opening('provider_c')]);
        const job = await jobOf(a!.jobId);
        expect(job.seniority).toBe('lead');
        expect(job.sources.map((s) => s.provider).sort()).toEqual([
          'own_index',
          'provider_a',
          'provider_c',
          'provider_d',
        ]);
        const stored = await db.prisma.canonicalJob.findUniqueOrThrow({ where: { id: a!.jobId } });
        expect((stored.fieldSources as Record<string, unknown[]>)['seniority']?.slice(0, 2)).toEqual([0, 'own_index']);
        const changes = await lifecycleOf(a!.jobId);
        expect(changes.map((c) => c.change)).toEqual(['opened', 'updated']);
        expect(changes[1]).toMatchObject({ changed_fields: ['seniority'], job: { seniority: 'lead' } });
      },
    );

    it('finds the job with seniority_or lead whichever source answered first, in one batch or several', async () => {
      const sources = () => [
        opening('provider_a', {
          seniority: 'senior',
          lossy: ['seniority'],
          title: 'Principal Risk Lead',
          apply_url: 'https://rankwise.example/careers/lead-2',
        }),
        opening('provider_c', { title: 'Principal Risk Lead', apply_url: 'https://rankwise.example/careers/lead-2' }),
        opening('provider_d', { title: 'Principal Risk Lead', apply_url: 'https://rankwise.example/careers/lead-2' }),
      ];
      const together = await repository.mergeBatch(sources().reverse());
      expect(new Set(together.map((r) => r.jobId)).size).toBe(1);
      expect((await jobOf(together[0]!.jobId)).seniority).toBe('lead');
    });

    it(
      'names a company by its best-ranked source: a later better ' + 'name renames it and updates its open jobs',
      async () => {
        const company = (name: string) => ({ name, domain: 'namewise.example' });
        const role = (provider: NormalizedProviderRecord['provider'], title: string, name: string) =>
          record({
            provider,
            title,
            company: company(name),
            apply_url: `https://namewise.example/careers/${title.replaceAll(' ', '-').toLowerCase()}`,
          });
        const [first] = await repository.mergeBatch([role('provider_e', 'Treasury Analyst', 'NAMEWISE, Inc.')]);
        expect((await jobOf(first!.jobId)).company.name).toBe('NAMEWISE, Inc.');
        // provider_f ranks after provider_e: nothing changes
        await repository.mergeBatch([role('provider_f', 'Credit Analyst', 'Namewise Group')]);
        expect((await jobOf(first!.jobId)).company.name).toBe('NAMEWISE, Inc.');
        // the own crawler lists another of its jobs: the company takes its name, and every open job of it tells readers
        const [crawled] = await repository.mergeBatch([role('own_index', 'Payments Analyst', 'Namewise')]);
        expect((await jobOf(first!.jobId)).company.name).toBe('Namewise');
        expect((await jobOf(crawled!.jobId)).company.name).toBe('Namewise');
        expect((await lifecycleOf(first!.jobId)).map((x) => [x.change, x.changed_fields])).toEqual([
          ['opened', []],
          ['updated', ['company.name']],
        ]);
        expect(await db.prisma.company.count({ where: { domain: 'namewise.example' } })).toBe(1);
      },
    );

    it('a known listing that changes at its provider moves the field only where it is the best source', async () => {
      const c = opening('provider_c', {
        title: 'Lead Payments Engineer',
        apply_url: 'https://rankwise.example/careers/lead-3',
      });
      const f = opening('provider_f', {
        title: 'Lead Payments Engineer',
        apply_url: 'https://rankwise.example/careers/lead-3',
        employment_type: 'contract',
      });
      const [first] = await repository.mergeBatch([c, f]);
      expect((await jobOf(first!.jobId)).employment_type).toBe('full_time');
      // provider_f (ranked after provider_c) edits its value: the job keeps provider_c's
      await repository.mergeBatch([{ ...f, employment_type: 'temporary', seen_at: '2026-11-21T12:00:00.000Z' }]);
      expect((await jobOf(first!.jobId)).employment_type).toBe('full_time');
      // provider_c, the field's source, edits it: the job follows
      await repository.mergeBatch([{ ...c, employment_type: 'part_time', seen_at: '2026-11-21T12:00:00.000Z' }]);
      expect((await jobOf(first!.jobId)).employment_type).toBe('part_time');
      expect((await lifecycleOf(first!.jobId)).map((x) => [x.change, x.changed_fields])).toEqual([
        ['opened', []],
        ['updated', ['employment_type']],
      ]);
    });
  });
});
