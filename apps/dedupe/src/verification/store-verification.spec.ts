// Integration test against the real PostgreSQL: the verification ages of a store with known
// sighting times, the rounds' bound, the table the admin status reads, one measure per period
// whatever the replicas, and the gauges as Prometheus scrapes them.
import { metrics } from '@opentelemetry/api';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { prometheusReader, scrapeMetrics, type Logger } from '@jobs/observability';
import type { DrainRegistry } from '@jobs/service-kit';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { StoreVerification } from './store-verification.js';
import { verificationAges } from './verification-queries.js';

const logger = { info: () => undefined, warn: () => undefined, debug: () => undefined } as unknown as Logger;
const drains = { register: () => undefined } as unknown as DrainRegistry;
const MIN = 60_000;
/**
 * The moment every seeded sighting's age counts back from, taken once the database is there: one
 * for all of them, so the spread of the measured ages is exactly the seeded one however slowly the
 * inserts run, and each measured age is its seeded one plus the time since this moment.
 */
let seededAt: Date;
// Date.now() counts whole milliseconds, the database's clock microseconds: one more for that.
const secondsSinceSeeded = () => (Date.now() + 1 - seededAt.getTime()) / 1000;
let db: ThrowawayDatabase;
let meterProvider: MeterProvider;

beforeAll(async () => {
  meterProvider = new MeterProvider({ readers: [prometheusReader()] });
  metrics.setGlobalMeterProvider(meterProvider);
  db = await throwawayDatabase('verification');
  seededAt = new Date();
  await db.prisma.$executeRaw`INSERT INTO companies (id, domain, name) VALUES ('co_1', 'acme.example', 'Acme')`;
}, 60_000);

afterAll(async () => {
  await db?.drop();
  metrics.disable();
  await meterProvider?.shutdown();
});

/** A job of status `status` with one source per entry, last seen `age` seconds before `seededAt`. */
async function job(
  id: string,
  status: 'open' | 'closed',
  sources: ReadonlyArray<{ provider: string; age: number; listed?: boolean }>,
): Promise<void> {
  await db.prisma.$executeRaw`
    INSERT INTO canonical_jobs (id, company_id, title, normalized_title, first_seen_at, last_seen_at, status, p_real,
      blocking_key, updated_at)
    VALUES (${id}, 'co_1', ${id}, ${id}, now(), now(), ${status}::job_status, 0.9, ${id}, now())`;
  await db.prisma.$executeRaw`
    INSERT INTO job_sources (id, canonical_job_id, provider, provider_job_id, first_seen_at, last_seen_at, listed)
    SELECT ${id} || '_' || n, ${id}, v.provider::provider, ${id} || '_' || n, now(),
      ${seededAt.toISOString()}::timestamptz - v.age * interval '1 second', v.listed
    FROM unnest(${sources.map((s) => s.provider)}::text[], ${sources.map((s) => s.age)}::int[],
      ${sources.map((s) => s.listed ?? true)}::bool[]) WITH ORDINALITY AS v(provider, age, listed, n)`;
}

describe('verificationAges', () => {
  beforeAll(async () => {
    // provider_a lists 100 open jobs, last seen 1..100 s ago; provider_b lists one of them, 30 s ago
    for (let n = 1; n <= 100; n++)
      await job(
        `cj_${n}`,
        'open',
        n === 7
          ? [
              { provider: 'provider_a', age: n },
              { provider: 'provider_b', age: 30 },
            ]
          : [{ provider: 'provider_a', age: n }],
      );
    // left out: a closed job's listed source, an open job's unlisted one, and a source of a job closed since
    await job('cj_closed', 'closed', [
      { provider: 'provider_a', age: 10_000 },
      { provider: 'provider_c', age: 10_000 },
    ]);
    await job('cj_unlisted', 'open', [
      { provider: 'provider_a', age: 50 },
      { provider: 'provider_b', age: 5_000, listed: false },
      { provider: 'own_index', age: 5_000, listed: false },
    ]);
  });

  it(
    'measures, per provider, the oldest and the 99th percentile ' +
      'of its listed sources of open jobs, closed jobs and unlisted ' +
      'sources left out',
    async () => {
      const ages = await verificationAges(db.prisma);
      const elapsed = secondsSinceSeeded();
      expect(ages.map((a) => [a.provider, a.listedSources])).toEqual([
        ['provider_a', 101],
        ['provider_b', 1],
      ]);
      const [a, b] = ages;
      // ages 1..100 and 50: the oldest is 100 s, the 99th percentile (the 100th of 101) 99 s, each
      // measured at the statement, `elapsed` or less after `seededAt`
      expect(a!.maxAgeSeconds).toBeGreaterThanOrEqual(100);
      expect(a!.maxAgeSeconds).toBeLessThanOrEqual(100 + elapsed);
      expect(a!.maxAgeSeconds - a!.p99AgeSeconds).toBeCloseTo(1, 3);
      expect(b!.maxAgeSeconds).toBeGreaterThanOrEqual(30);
      expect(b!.maxAgeSeconds).toBeLessThanOrEqual(30 + elapsed);
      expect(b!.p99AgeSeconds).toBe(b!.maxAgeSeconds);
    },
  );
});

describe('StoreVerification', () => {
  const now = new Date();
  const at = (msAgo: number) => new Date(now.getTime() - msAgo);

  beforeAll(async () => {
    const rounds = [
      // provider_a: three rounds within the interval, one of them with nothing to re-verify
      { id: 'rfr_a1', provider: 'provider_a', startedAt: at(3 * MIN), sweeps: [5_000, 8_000] },
      { id: 'rfr_a2', provider: 'provider_a', startedAt: at(2 * MIN), sweeps: [] },
      { id: 'rfr_a3', provider: 'provider_a', startedAt: at(MIN), sweeps: [12_000] },
      // provider_c: a round of 90 s at a 60 s interval, before one of 10 s
      { id: 'rfr_c1', provider: 'provider_c', startedAt: at(3 * MIN), sweeps: [30_000, 90_000] },
      { id: 'rfr_c2', provider: 'provider_c', startedAt: at(MIN), sweeps: [10_000] },
      // own_index: its catalog round out for 20 s so far
      { id: 'rfr_o1', provider: 'own_index', startedAt: at(20_000), sweeps: [null] },
      // provider_b: its only recent round out for 2 minutes
      { id: 'rfr_b1', provider: 'provider_b', startedAt: at(2 * MIN), sweeps: [1_000, null] },
    ];
    for (const round of rounds) {
      await db.prisma.refreshPass.create({
        data: {
          id: round.id,
          kind: 'round',
          provider: round.provider as 'provider_a',
          trigger: 'schedule',
          startedAt: round.startedAt,
          bucket: 0,
        },
      });
      await db.prisma.refreshSweep.createMany({
        data: round.sweeps.map((ms, i) => ({
          passId: round.id,
          provider: round.provider as 'provider_a',
          key: `companies:0/10:${i}`,
          kind: 'companies',
          finishedAt: ms === null ? null : new Date(round.startedAt.getTime() + ms),
        })),
      });
    }
    // provider_f: its rounds fit, but one open job it lists was last seen 11 minutes ago
    await job('cj_f_old', 'open', [{ provider: 'provider_f', age: 660 }]);
    await db.prisma.refreshPass.create({
      data: { id: 'rfr_f1', kind: 'round', provider: 'provider_f', trigger: 'schedule', startedAt: at(MIN), bucket: 0 },
    });
    await db.prisma.refreshSweep.create({
      data: {
        passId: 'rfr_f1',
        provider: 'provider_f',
        key: 'companies:0/9:0',
        kind: 'companies',
        finishedAt: at(MIN - 3_000),
      },
    });
    // a pass is not a round: its length says nothing of the bound
    await db.prisma.refreshPass.create({
      data: { id: 'rfr_pass', kind: 'pass', provider: 'provider_a', trigger: 'schedule', startedAt: at(5 * MIN) },
    });
    await db.prisma.refreshSweep.create({
      data: {
        passId: 'rfr_pass',
        provider: 'provider_a',
        key: 'new_listings',
        kind: 'new_listings',
        finishedAt: at(MIN),
      },
    });
  });

  it(
    "writes every provider's ages and bound to " +
      'store_verification: the promise holds while each recent ' +
      'round fits in an interval and the oldest listing is within ' +
      'it',
    async () => {
      const check = new StoreVerification(db.prisma, { intervalMs: MIN, buckets: 10 }, logger, drains);
      expect(await check.runOnce(now, true)).toBe(true);
      const rows = await db.prisma.storeVerification.findMany({ orderBy: { provider: 'asc' } });
      expect(rows).toHaveLength(7);
      const of = (provider: string) => rows.find((r) => r.provider === provider)!;
      expect(of('provider_a')).toMatchObject({
        listedSources: 101,
        boundSeconds: 600,
        currentBoundSeconds: 600,
        holds: true,
        computedAt: now,
      });
      expect(of('provider_a').maxAgeSeconds).toBeGreaterThanOrEqual(100);
      expect(of('provider_c')).toMatchObject({
        listedSources: 0,
        maxAgeSeconds: null,
        p99AgeSeconds: null,
        boundSeconds: 600,
        currentBoundSeconds: 900,
        holds: false,
      });
      expect(of('own_index')).toMatchObject({ boundSeconds: 600, currentBoundSeconds: 600, holds: true });
      // a round out for two minutes already broke the promise
      expect(of('provider_b')).toMatchObject({
        listedSources: 1,
        boundSeconds: 600,
        currentBoundSeconds: 1_200,
        holds: false,
      });
      // no round yet: nothing re-verified
      expect(of('provider_d')).toMatchObject({ boundSeconds: 600, holds: false });
      // rounds that fit do not make the promise hold over a listing older than the bound
      expect(of('provider_f')).toMatchObject({
        listedSources: 1,
        boundSeconds: 600,
        currentBoundSeconds: 600,
        holds: false,
      });
      expect(of('provider_f').maxAgeSeconds).toBeGreaterThanOrEqual(660);
    },
  );

  it('measures once a period whatever the replicas, and exports the latest measure from every one', async () => {
    const replicas = [
      new StoreVerification(db.prisma, { intervalMs: MIN, buckets: 10 }, logger, drains),
      new StoreVerification(db.prisma, { intervalMs: MIN, buckets: 10 }, logger, drains),
    ];
    const later = new Date(now.getTime() + MIN);
    const measured = await Promise.all(replicas.map((r) => r.runOnce(later)));
    expect(measured.filter(Boolean)).toHaveLength(1);
    // within the period neither measures again; both take the latest measure
    expect(await Promise.all(replicas.map((r) => r.runOnce(new Date(later.getTime() + 30_000))))).toEqual([
      false,
      false,
    ]);
    for (const replica of replicas)
      expect(replica.exported(later.getTime()).map((r) => r.computedAt)).toEqual(Array(7).fill(later));
    // the check stopped three periods ago: nothing exported rather than old figures
    expect(replicas[0]!.exported(later.getTime() + 3 * MIN + 1)).toEqual([]);
  });

  it(
    'exports store_verification_age_seconds{provider,stat}, ' +
      'store_verification_bound_seconds and ' +
      'store_verification_bound_holds',
    async () => {
      const check = new StoreVerification(db.prisma, { intervalMs: MIN, buckets: 10 }, logger, drains);
      await check.runOnce(new Date(), true);
      const text = await scrapeMetrics();
      // The seeded ages grow while the test runs: their spread is what stays put (to the
      // microsecond, less the metric's float formatting).
      const age = (stat: string) =>
        Number(
          new RegExp(
            `^store_verification_age_seconds\\{provider="provider_a",stat="${stat}",[^}]*\\} ([0-9.]+)$`,
            'm',
          ).exec(text)?.[1],
        );
      expect(age('max')).toBeGreaterThanOrEqual(100);
      expect(age('max') - age('p99')).toBeCloseTo(1, 3);
      expect(text).not.toMatch(/^store_verification_age_seconds\{provider="provider_c"/m);
      expect(text).toMatch(/^store_verification_bound_seconds\{provider="provider_c",[^}]*\} 600$/m);
      expect(text).toMatch(/^store_verification_bound_holds\{provider="provider_a",[^}]*\} 1$/m);
      expect(text).toMatch(/^store_verification_bound_holds\{provider="provider_c",[^}]*\} 0$/m);
    },
  );
});
