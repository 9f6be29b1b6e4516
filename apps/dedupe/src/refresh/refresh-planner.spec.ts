// Integration test against the real PostgreSQL: the refresh planner's sequences (a pass and a
// round per provider, each never overlapping itself and waiting for no other), requests served by
// the next run of every sequence, the schedule, and the sweeps staged in the outbox with their rows.
import { PROVIDER_SLUGS, type ProviderSlug, type RefreshFetchRequested } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { DrainRegistry } from '@jobs/service-kit';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { CanonicalJobRepository } from '../canonical-jobs/canonical-job.repository.js';
import type { CloseRemovedBoardsUseCase } from '../crawler-boards/close-removed-boards.usecase.js';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';
import { RefreshPlanner, type RefreshSettings, type SequenceOutcome } from './refresh-planner.js';

const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as Logger;
const drains = { register: () => undefined } as unknown as DrainRegistry;
const MIN = 60_000;
const PARTNERS = PROVIDER_SLUGS.filter((p) => p !== 'own_index');
/** Listing lags as REFRESH_LISTING_LAG_MS gives them (provider_b 15 minutes). */
const LAGS = {
  own_index: 2 * MIN,
  provider_a: 5 * MIN,
  provider_b: 15 * MIN,
  provider_c: MIN,
  provider_d: 30 * MIN,
  provider_e: 60 * MIN,
  provider_f: 10 * MIN,
};
const settings = (over: Partial<RefreshSettings> = {}): RefreshSettings => ({
  intervalMs: MIN,
  buckets: 10,
  listingLagMs: LAGS,
  ...over,
});
/** The planner's board closing is the crawler-boards spec's; here no board was removed. */
const noRemovedBoards = { execute: () => Promise.resolve() } as unknown as CloseRemovedBoardsUseCase;
let db: ThrowawayDatabase;
let planner: RefreshPlanner;

beforeAll(async () => {
  db = await throwawayDatabase('planner');
  planner = new RefreshPlanner(db.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const staged = async () =>
  (await db.prisma.outboxMessage.findMany({ where: { topic: { startsWith: 'refresh.' } } })).map((m) => ({
    topic: m.topic,
    value: JSON.parse(m.value) as RefreshFetchRequested.Value,
  }));
const sweepsOf = async (runId: string) => (await staged()).filter((m) => m.value.refresh_id === runId);
const of = (outcomes: SequenceOutcome[], kind: 'pass' | 'round', provider: ProviderSlug) =>
  outcomes.find((o) => o.kind === kind && o.provider === provider)!.outcome;
const idOf = (outcomes: SequenceOutcome[], kind: 'pass' | 'round', provider: ProviderSlug) =>
  (of(outcomes, kind, provider) as { started: string }).started;
const finish = (runId: string, ok = true) =>
  db.prisma.refreshSweep.updateMany({ where: { passId: runId }, data: { finishedAt: new Date(), ok } });

describe('RefreshPlanner', () => {
  const t0 = new Date('2026-11-24T10:00:00.000Z');
  let first: SequenceOutcome[];

  it('starts a pass and a round of every provider, each with its own id and sweeps, on topics apart', async () => {
    first = await planner.tryStart(t0);
    expect(first).toHaveLength(2 * PROVIDER_SLUGS.length);
    expect(first.every((o) => 'started' in o.outcome)).toBe(true);
    expect(new Set(first.map((o) => (o.outcome as { started: string }).started)).size).toBe(first.length);
    for (const provider of PARTNERS) {
      const [sweep, ...more] = await sweepsOf(idOf(first, 'pass', provider));
      expect(more).toEqual([]);
      expect(sweep).toMatchObject({
        topic: 'refresh.pass.fetch.requested',
        value: { kind: 'new_listings', provider, timeout_ms: 120_000, call_timeout_ms: 30_000 },
      });
    }
    expect((await sweepsOf(idOf(first, 'pass', 'own_index'))).map((m) => [m.topic, m.value.kind])).toEqual([
      ['refresh.pass.fetch.requested', 'catalog_changes'],
    ]);
    // the own crawler's first round (bucket 0) re-reads its whole catalog; the partners have nothing stored to
    // re-verify
    expect(
      (await sweepsOf(idOf(first, 'round', 'own_index'))).map((m) => [m.topic, m.value.kind, m.value.due_at]),
    ).toEqual([['refresh.fetch.requested', 'catalog', t0.getTime() + 58_200]]);
    for (const provider of PARTNERS) expect(await sweepsOf(idOf(first, 'round', provider))).toEqual([]);
    expect(
      await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: idOf(first, 'round', 'own_index') } }),
    ).toMatchObject({ kind: 'round', provider: 'own_index', bucket: 0, trigger: 'schedule' });
    expect(
      await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: idOf(first, 'pass', 'provider_b') } }),
    ).toMatchObject({ kind: 'pass', provider: 'provider_b', bucket: null });
  });

  it(
    'a provider whose pass has not ended holds back only its own ' +
      "next pass; a request is served by every other provider's at " +
      'once',
    async () => {
      const at = new Date(t0.getTime() + 10_000);
      // every pass ended but provider_b's (a partner that does not answer)
      for (const provider of PROVIDER_SLUGS.filter((p) => p !== 'provider_b'))
        await finish(idOf(first, 'pass', provider));
      expect(of(await planner.tryStart(at), 'pass', 'own_index')).toEqual({
        waiting: 'interval',
        dueAt: t0.getTime() + MIN,
      });
      // as planner.request() records it (without kicking the planner's own loop, which runs by the real clock)
      await db.prisma.refreshRequest.create({
        data: { id: 'rfr_operator_1', requestedAt: new Date(at.getTime() + 1) },
      });
      const served = await planner.tryStart(new Date(at.getTime() + 2));
      expect(of(served, 'pass', 'provider_b')).toEqual({ waiting: 'running' });
      expect(of(served, 'round', 'own_index')).toEqual({ waiting: 'running' });
      for (const provider of PROVIDER_SLUGS.filter((p) => p !== 'provider_b'))
        expect(of(served, 'pass', provider)).toHaveProperty('started');
      // the partners' empty rounds ended at once: their next rounds serve the request, with the next bucket
      for (const provider of PARTNERS) {
        const id = idOf(served, 'round', provider);
        expect(await db.prisma.refreshPass.findUniqueOrThrow({ where: { id } })).toMatchObject({
          bucket: 1,
          trigger: 'request',
        });
      }
      // provider_b's pass ends: its next one serves the request too, while the others wait for their interval
      await finish(idOf(first, 'pass', 'provider_b'), false);
      const late = await planner.tryStart(new Date(at.getTime() + 3));
      expect(of(late, 'pass', 'provider_b')).toHaveProperty('started');
      expect(of(late, 'pass', 'provider_a')).toEqual({ waiting: 'running' });
      // its last pass read nothing: this one reaches back to the last that did (none: the usual window)
      const [b] = await sweepsOf(idOf(late, 'pass', 'provider_b'));
      expect(b!.value.listed_since).toBe(at.getTime() + 3 - 2 * MIN);
    },
  );

  it('reaches back to the last pass that read its window when the ones after it failed', async () => {
    const b = await db.prisma.refreshPass.findFirstOrThrow({
      where: { kind: 'pass', provider: 'provider_b' },
      orderBy: { startedAt: 'desc' },
    });
    await finish(b.id, true);
    // the next pass, on schedule, fails; the one after reads from the one that read
    const next = await planner.tryStart(new Date(b.startedAt.getTime() + MIN));
    await finish(idOf(next, 'pass', 'provider_b'), false);
    const after = await planner.tryStart(new Date(b.startedAt.getTime() + 2 * MIN));
    const [sweep] = await sweepsOf(idOf(after, 'pass', 'provider_b'));
    expect(sweep!.value.listed_since).toBe(b.startedAt.getTime() + MIN - 2 * MIN);
  });

  it('a run whose sweep never ended stops holding its sequence back after the stale bound', async () => {
    const round = await db.prisma.refreshPass.findFirstOrThrow({
      where: { kind: 'round', provider: 'own_index' },
      orderBy: { startedAt: 'desc' },
    });
    expect(of(await planner.tryStart(new Date(round.startedAt.getTime() + 2 * MIN)), 'round', 'own_index')).toEqual({
      waiting: 'running',
    });
    const later = await planner.tryStart(new Date(round.startedAt.getTime() + 11 * MIN));
    expect(
      await db.prisma.refreshPass.findUniqueOrThrow({ where: { id: idOf(later, 'round', 'own_index') } }),
    ).toMatchObject({ bucket: 1 });
  });
});

describe('RefreshPlanner rounds', () => {
  let store: ThrowawayDatabase;
  beforeAll(async () => {
    store = await throwawayDatabase('planner_rounds');
  }, 60_000);
  afterAll(async () => {
    await store?.drop();
  });

  const t = new Date('2026-11-24T10:00:00.000Z');
  const domains = Array.from({ length: 30 }, (_, i) => `d${i}.example`);
  const roundSweeps = async (outcomes: SequenceOutcome[], provider: ProviderSlug) =>
    (await store.prisma.outboxMessage.findMany({ where: { topic: 'refresh.fetch.requested' } }))
      .map((m) => JSON.parse(m.value) as RefreshFetchRequested.Value)
      .filter((v) => v.refresh_id === idOf(outcomes, 'round', provider));
  /** A listing of `title` at the company of `domain` (named as its domain). */
  const record = (provider: ProviderSlug, domain: string, title: string) => ({
    provider,
    provider_job_id: `${provider}-${domain}-${title}`,
    url: null,
    title,
    company: { name: domain, domain },
    location: { city: 'Leeds', region: null, country_code: 'GB', remote: false },
    employment_type: 'full_time' as const,
    seniority: 'mid' as const,
    job_family: 'engineering' as const,
    salary: null,
    description: `The ${title} at ${domain}.`,
    apply_url: null,
    posted_at: '2026-11-19T09:00:00.000Z',
    seen_at: '2026-11-20T09:00:00.000Z',
  });
  /** The round bucket of a company's domain at the default REFRESH_BUCKETS (a cycle of 9), as the planner hashes it. */
  const bucketOfDomain = async (domain: string) =>
    (await store.prisma.$queryRaw<{ bucket: number }[]>`SELECT mod(abs(hashtext(${domain})), 9) AS bucket`)[0]!.bucket;
  const seen = (provider: ProviderSlug, msAgo: number, domainsSeen: readonly string[]) => store.prisma.$executeRaw`
    UPDATE job_sources s SET last_seen_at = ${new Date(t.getTime() - msAgo)}
    FROM canonical_jobs j JOIN companies c ON c.id = j.company_id
    WHERE j.id = s.canonical_job_id AND s.provider::text = ${provider} AND c.domain = ANY(${[...domainsSeen]}::text[])`;

  it(
    "re-verifies each partner's companies in sweeps sized by its " +
      'stored listings, due before the interval ends, and nothing ' +
      'with a partner that lists none',
    async () => {
      const repository = new CanonicalJobRepository(store.prisma, outboxStub());
      await repository.mergeBatch(domains.map((d) => record('provider_a', d, 'Canal Engineer')));
      await repository.mergeBatch(domains.slice(0, 10).map((d) => record('provider_a', d, 'Lock Engineer')));
      await repository.mergeBatch([
        record('provider_c', 'd0.example', 'Lock Keeper'),
        record('own_index', 'd0.example', 'Lock Keeper'),
      ]);
      // provider_e sends no domain: at a company nobody else names, its listing is read by id
      const domainless = {
        ...record('provider_e', 'nameonly', 'Ferry Planner'),
        company: { name: 'Nameonly', domain: null },
      };
      await repository.mergeBatch([domainless, record('provider_e', 'd1.example', 'Canal Engineer')]);
      // one bucket (a bound of two rounds): every company is in each round; 40 listings of provider_a fit one sweep
      const planner = new RefreshPlanner(
        store.prisma,
        outboxStub(),
        settings({ buckets: 2 }),
        logger,
        drains,
        noRemovedBoards,
      );
      const outcomes = await planner.tryStart(t);
      const a = await roundSweeps(outcomes, 'provider_a');
      expect(a.map((s) => s.scope.key)).toEqual(['companies:0/1:0']);
      expect([...a[0]!.scope.filters.company_domain_or!].sort()).toEqual([...domains].sort());
      expect(a[0]!.due_at).toBe(t.getTime() + 58_200);
      expect((await roundSweeps(outcomes, 'provider_c')).map((s) => s.scope.filters.company_domain_or)).toEqual([
        ['d0.example'],
      ]);
      expect(await roundSweeps(outcomes, 'provider_b')).toEqual([]);
      expect(
        (await roundSweeps(outcomes, 'provider_e')).map((s) => [s.kind, s.scope.filters, s.scope.listing_ids]),
      ).toEqual([
        ['companies', { company_domain_or: ['d1.example'] }, undefined],
        ['listings', {}, [domainless.provider_job_id]],
      ]);
      // a pass's sweep starts at once: no due time
      const passes = (
        await store.prisma.outboxMessage.findMany({ where: { topic: 'refresh.pass.fetch.requested' } })
      ).map((m) => JSON.parse(m.value) as RefreshFetchRequested.Value);
      expect(passes.length).toBeGreaterThan(0);
      expect(passes.every((p) => p.due_at === undefined)).toBe(true);
      // the own crawler read its whole catalog in its first round; its next re-verifies its companies, as a partner's
      expect((await roundSweeps(outcomes, 'own_index')).map((s) => s.kind)).toEqual(['catalog']);
      await store.prisma.refreshSweep.updateMany({ data: { finishedAt: new Date(), ok: true } });
      const next = await planner.tryStart(new Date(t.getTime() + MIN));
      expect((await roundSweeps(next, 'own_index')).map((s) => [s.kind, s.scope.filters.company_domain_or])).toEqual([
        ['companies', ['d0.example']],
      ]);
    },
  );

  it(
    "takes a bucket's companies a round, and adds those a sweep of " +
      'an earlier round failed to read whole (once: the round takes ' +
      'them), and those of jobs the own crawler saw close',
    async () => {
      await store.prisma.refreshPass.deleteMany({});
      await store.prisma.outboxMessage.deleteMany({});
      const buckets = await store.prisma.$queryRaw<
        { domain: string; bucket: number }[]
      >`SELECT d AS domain, mod(abs(hashtext(d)), 9) AS bucket FROM unnest(${domains}::text[]) AS d`;
      const bucketOf = new Map(buckets.map((b) => [b.domain, b.bucket]));
      const inBucket0 = domains.filter((d) => bucketOf.get(d) === 0).sort();
      const elsewhere = domains.filter((d) => bucketOf.get(d)! > 0 && bucketOf.get(d)! < 8 && d !== 'd0.example');
      expect(inBucket0.length).toBeGreaterThan(0);
      expect(elsewhere.length).toBeGreaterThan(1);
      // provider_a's rounds of buckets 1 to 8 began 8 to 1 minutes ago: the next is bucket 0's
      const roundOf = (bucket: number) => t.getTime() - (9 - bucket) * MIN;
      for (let bucket = 1; bucket <= 8; bucket++) {
        await store.prisma.refreshPass.create({
          data: {
            id: `rfr_a${bucket}`,
            kind: 'round',
            provider: 'provider_a',
            trigger: 'schedule',
            startedAt: new Date(roundOf(bucket)),
            bucket,
          },
        });
      }
      await seen('provider_a', 30_000, domains);
      await seen('provider_c', 30_000, domains);
      // the sweep of `missed`'s bucket that read it timed out; the one that read `read` ended whole
      const [missed, read] = elsewhere;
      await seen('provider_a', t.getTime() - roundOf(bucketOf.get(missed!)!) + 60_000, [missed!]);
      const merge = new MergeRefreshUseCase(
        new CanonicalJobRepository(store.prisma, outboxStub()),
        { kick: () => undefined } as unknown as RefreshPlanner,
        logger,
      );
      const sweepEnd = (domain: string, outcome: 'ok' | 'provider_timeout') =>
        merge.execute({
          v: 1,
          refresh_id: `rfr_a${bucketOf.get(domain)}`,
          kind: 'companies',
          scope: { key: `companies:${bucketOf.get(domain)}/9:0`, filters: { company_domain_or: [domain] } },
          provider: 'provider_a',
          part: 0,
          final: true,
          outcome,
          complete: outcome === 'ok',
          started_at: new Date(roundOf(bucketOf.get(domain)!)).toISOString(),
          latency_ms: 10,
          fetched_at: new Date(roundOf(bucketOf.get(domain)!) + 1_000).toISOString(),
          records: [],
        });
      await sweepEnd(missed!, 'provider_timeout');
      await sweepEnd(read!, 'ok');
      // the own crawler no longer lists d0's Lock Keeper: provider_c decides its closure
      await store.prisma.jobSource.updateMany({
        where: { provider: 'own_index' },
        data: { listed: false, unlistedAt: new Date(t.getTime() - 30_000) },
      });
      const planner = new RefreshPlanner(store.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
      const outcomes = await planner.tryStart(t);
      expect(
        await store.prisma.refreshPass.findUniqueOrThrow({ where: { id: idOf(outcomes, 'round', 'provider_a') } }),
      ).toMatchObject({ bucket: 0 });
      const a = await roundSweeps(outcomes, 'provider_a');
      expect(a.map((s) => s.scope.key)).toEqual(['companies:0/9:0']);
      // the missed company first: it was seen longest ago
      expect(a[0]!.scope.filters.company_domain_or).toEqual([missed!, ...inBucket0]);
      expect((await roundSweeps(outcomes, 'provider_c')).map((s) => s.scope.filters.company_domain_or)).toEqual([
        ['d0.example'],
      ]);
      // the round took what it owed: the next reads its own bucket only
      expect(await store.prisma.refreshOwedRead.count({ where: { provider: 'provider_a' } })).toBe(0);
      await store.prisma.refreshSweep.updateMany({ data: { finishedAt: new Date(), ok: true, complete: true } });
      const after = await planner.tryStart(new Date(t.getTime() + MIN));
      const next = (await roundSweeps(after, 'provider_a')).flatMap((s) => s.scope.filters.company_domain_or ?? []);
      expect(next.length).toBeGreaterThan(0);
      expect(next.every((d) => bucketOf.get(d) === 1)).toBe(true);
    },
  );

  it(
    'adds the new company of a job that moved there (its listings were read with their old one), ' +
      "and the whole last bucket's again when that round lost a sweep",
    async () => {
      await store.prisma.refreshPass.deleteMany({});
      await store.prisma.outboxMessage.deleteMany({});
      const repository = new CanonicalJobRepository(store.prisma, outboxStub());
      // provider_c lists the same opening with its company's domain: the job moves to that company
      const [ferry] = await store.prisma.jobSource.findMany({
        where: { provider: 'provider_e', providerJobId: { contains: 'Ferry' } },
        include: { canonicalJob: { include: { company: true } } },
      });
      expect(ferry!.canonicalJob.company.domain).toBeNull();
      const movedTo = await bucketOfDomain('nameonly.example');
      await repository.mergeBatch([
        {
          ...record('provider_c', 'nameonly', 'Ferry Planner'),
          company: { name: 'Nameonly', domain: 'nameonly.example' },
          seen_at: t.toISOString(),
        },
      ]);
      const moved = await store.prisma.canonicalJob.findUniqueOrThrow({
        where: { id: ferry!.canonicalJobId },
        include: { company: true },
      });
      expect(moved.company.domain).toBe('nameonly.example');
      // provider_e's last round read the bucket of d1.example a minute ago, and lost a sweep
      const last = await bucketOfDomain('d1.example');
      // neither that round's bucket nor the next one's holds the company the job moved to: only the owed read adds it
      expect([last, (last + 1) % 9]).not.toContain(movedTo);
      await store.prisma.refreshPass.create({
        data: {
          id: 'rfr_e_last',
          kind: 'round',
          provider: 'provider_e',
          trigger: 'schedule',
          startedAt: new Date(t.getTime() - MIN),
          bucket: last,
        },
      });
      await store.prisma.refreshSweep.create({
        data: { passId: 'rfr_e_last', provider: 'provider_e', key: `companies:${last}/9:0`, kind: 'companies' },
      });
      // after the stale bound the planner gives up on that round; the next reads the company the job moved to
      const planner = new RefreshPlanner(store.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
      const e = (await roundSweeps(await planner.tryStart(new Date(t.getTime() + 11 * MIN)), 'provider_e')).flatMap(
        (s) => s.scope.filters.company_domain_or ?? [],
      );
      expect(e).toContain('nameonly.example');
      expect(e).toContain('d1.example');
    },
  );

  it(
    "adds a company for a closure only when the own crawler lists none of a job's listings: a re-listed " +
      "opening's old listing, unlisted beside its new one, is no closure",
    async () => {
      await store.prisma.refreshPass.deleteMany({});
      await store.prisma.outboxMessage.deleteMany({});
      const d0 = await bucketOfDomain('d0.example');
      // provider_c's last round read d0's bucket a minute ago and saw d0: its next round is another bucket's
      const at = new Date(t.getTime() + 10 * MIN);
      await store.prisma.refreshPass.create({
        data: {
          id: 'rfr_c_last',
          kind: 'round',
          provider: 'provider_c',
          trigger: 'schedule',
          startedAt: new Date(at.getTime() - MIN),
          bucket: d0,
        },
      });
      await seen('provider_c', t.getTime() - (at.getTime() - 30_000), ['d0.example']);
      // the own crawler re-listed d0's Lock Keeper: its old listing unlisted, the new one listed
      await store.prisma.$executeRaw`
        INSERT INTO job_sources (id, canonical_job_id, provider, provider_job_id, first_seen_at, last_seen_at, listed)
        SELECT id || '_relisted', canonical_job_id, provider, provider_job_id || '-relisted', ${at}, ${at}, true
        FROM job_sources WHERE provider = 'own_index'`;
      const roundOfC = async (when: Date) => {
        await store.prisma.refreshSweep.updateMany({ data: { finishedAt: when, ok: true } });
        const planner = new RefreshPlanner(store.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
        return (await roundSweeps(await planner.tryStart(when), 'provider_c')).flatMap(
          (s) => s.scope.filters.company_domain_or ?? [],
        );
      };
      expect(await roundOfC(at)).not.toContain('d0.example');
      // the new listing gone too: the own crawler saw the opening close, and provider_c decides
      await store.prisma.jobSource.updateMany({
        where: { provider: 'own_index', listed: true },
        data: { listed: false, unlistedAt: new Date(at.getTime() + 30_000) },
      });
      expect(await roundOfC(new Date(at.getTime() + MIN))).toContain('d0.example');
    },
  );

  it(
    'adds a closure to the rounds of the cycle after it (its absence merged late, or dated by a clock behind), ' +
      'then leaves the job to its bucket',
    async () => {
      // the last test left d0's Lock Keeper closing since `at + 30 s`, its round at `at + 1 min` took it
      const at = new Date(t.getTime() + 10 * MIN);
      const roundOfC = async (when: Date) => {
        await store.prisma.refreshSweep.updateMany({ data: { finishedAt: when, ok: true } });
        const planner = new RefreshPlanner(store.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
        return (await roundSweeps(await planner.tryStart(when), 'provider_c')).flatMap(
          (s) => s.scope.filters.company_domain_or ?? [],
        );
      };
      const d0 = await bucketOfDomain('d0.example');
      // rounds at `at + 2 min` ... `at + 10 min`: each began within a cycle (9 rounds) of the closing
      for (let k = 2; k <= 10; k++) expect(await roundOfC(new Date(at.getTime() + k * MIN))).toContain('d0.example');
      // `at + 11 min`: its last round began more than a cycle after the closing, and its bucket is another's
      const rounds = await store.prisma.refreshPass.count({ where: { provider: 'provider_c', kind: 'round' } });
      expect(rounds).toBeGreaterThan(9);
      const next = await roundOfC(new Date(at.getTime() + 11 * MIN));
      const last = await store.prisma.refreshPass.findFirstOrThrow({
        where: { provider: 'provider_c', kind: 'round' },
        orderBy: { startedAt: 'desc' },
      });
      expect(last.bucket).not.toBe(d0);
      expect(next).not.toContain('d0.example');
    },
  );
});

describe('a pass after a day of failed ones', () => {
  let own: ThrowawayDatabase;
  beforeAll(async () => {
    own = await throwawayDatabase('planner_day');
  }, 60_000);
  afterAll(async () => {
    await own?.drop();
  });

  it('reaches back to the last pass that read its window, though the day of history it keeps is past', async () => {
    const planner = new RefreshPlanner(own.prisma, outboxStub(), settings(), logger, drains, noRemovedBoards);
    const failOpen = (at: Date) =>
      own.prisma.refreshSweep.updateMany({ where: { finishedAt: null }, data: { finishedAt: at, ok: false } });
    const t = new Date('2026-11-24T10:00:00.000Z');
    const good = idOf(await planner.tryStart(t), 'pass', 'provider_b');
    await own.prisma.refreshSweep.updateMany({ where: { passId: good }, data: { finishedAt: t, ok: true } });
    // the partner fails every pass for 25 hours
    for (let hour = 1; hour <= 25; hour++) {
      const at = new Date(t.getTime() + hour * 60 * MIN);
      await failOpen(at);
      await planner.tryStart(at);
    }
    const back = new Date(t.getTime() + 25 * 60 * MIN + MIN);
    await failOpen(back);
    const pass = idOf(await planner.tryStart(back), 'pass', 'provider_b');
    const [sweep] = (await own.prisma.outboxMessage.findMany({ where: { topic: 'refresh.pass.fetch.requested' } }))
      .map((m) => JSON.parse(m.value) as RefreshFetchRequested.Value)
      .filter((v) => v.refresh_id === pass);
    // from the good pass (an interval after it, less the two-interval window), not from two intervals ago
    expect(sweep!.listed_since).toBe(t.getTime() + MIN - 2 * MIN);
    // the rest of the day before is gone as before
    expect(
      await own.prisma.refreshPass.count({ where: { startedAt: { lt: new Date(back.getTime() - 1_440 * MIN) } } }),
    ).toBe(1);
  }, 60_000);
});
