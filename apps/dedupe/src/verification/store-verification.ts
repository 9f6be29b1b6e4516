import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PROVIDER_SLUGS, type ProviderSlug } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { jobsMeter, untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { PASS_STALE_MS, REFRESH_SETTINGS, type RefreshSettings } from '../refresh/refresh-planner.js';
import { SIGHTING_STEP_MS } from '../canonical-jobs/sightings.js';
import { roundDurationMs, verificationBound } from './verification-bound.js';
import { recentRounds, verificationAges } from './verification-queries.js';

/** The check runs every interval, but at most once a minute: its scan of job_sources is not free. */
export const MIN_CHECK_MS = 60_000;
/**
 * A measure older than this many periods is no longer exported (the check stopped: say nothing rather than old news).
 */
const EXPORTED_PERIODS = 3;

export interface StoreVerificationRow {
  provider: ProviderSlug;
  listedSources: number;
  maxAgeSeconds: number | null;
  p99AgeSeconds: number | null;
  boundSeconds: number;
  currentBoundSeconds: number;
  holds: boolean;
  computedAt: Date;
}

/**
 * Measures how fresh the store is, per provider, and whether the freshness bound
 * (docs/decisions/0025-refresh-and-freshness-bound.md) holds:
 * the age of every listed source of an open job (`verificationAges`), and the bound of the
 * provider's latest `buckets` rounds, which holds while they fitted in their intervals and its
 * oldest listing is within it (`verificationBound`). The figures go to the
 * `store_verification` table, which the admin refresh status reads, and out as gauges:
 * `store_verification_age_seconds{provider,stat=max|p99}`, `store_verification_bound_seconds{provider}`
 * and `store_verification_bound_holds{provider}`.
 *
 * Replicas agree as the planner's do, through an advisory lock and the database: each one looks
 * every period, and the one that takes the lock and finds the last measure a period old measures
 * again, so the scan runs once a period whatever the number of replicas. Every replica exports
 * the latest measure from the table, so a scrape of any of them gives the same figures.
 */
@Injectable()
export class StoreVerification implements OnApplicationBootstrap {
  private readonly periodMs: number;
  private readonly loop = new KickableLoop(async () => {
    await untraced(() => this.runOnce()).catch((error: unknown) =>
      this.logger.warn({ err: error }, 'store verification check failed; trying again later'),
    );
    return this.periodMs;
  });
  private latest: StoreVerificationRow[] = [];

  constructor(
    private readonly prisma: PrismaService,
    @Inject(REFRESH_SETTINGS) private readonly settings: Pick<RefreshSettings, 'intervalMs' | 'buckets'>,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    this.periodMs = Math.max(settings.intervalMs, MIN_CHECK_MS);
    drains.register('store-verification', () => this.loop.stop());
    const meter = jobsMeter();
    meter
      .createObservableGauge('store_verification_age_seconds', {
        description:
          'Seconds since each provider last saw its listed sources of ' +
          'open jobs, the oldest (stat=max) and the 99th percentile ' +
          '(stat=p99), at the last check.',
        unit: 's',
      })
      .addCallback((result) => {
        for (const row of this.exported()) {
          if (row.maxAgeSeconds !== null) result.observe(row.maxAgeSeconds, { provider: row.provider, stat: 'max' });
          if (row.p99AgeSeconds !== null) result.observe(row.p99AgeSeconds, { provider: row.provider, stat: 'p99' });
        }
      });
    meter
      .createObservableGauge('store_verification_bound_seconds', {
        description:
          "The promised freshness bound of each provider's re-verification: REFRESH_BUCKETS x REFRESH_INTERVAL_MS.",
        unit: 's',
      })
      .addCallback((result) => {
        for (const row of this.exported()) result.observe(row.boundSeconds, { provider: row.provider });
      });
    meter
      .createObservableGauge('store_verification_bound_holds', {
        description:
          '1 while the promised bound holds for the provider: each of ' +
          'its latest REFRESH_BUCKETS rounds fitted in an interval and ' +
          'its oldest listed source of an open job is within ' +
          'REFRESH_BUCKETS x REFRESH_INTERVAL_MS, else 0.',
      })
      .addCallback((result) => {
        for (const row of this.exported()) result.observe(row.holds ? 1 : 0, { provider: row.provider });
      });
  }

  onApplicationBootstrap(): void {
    // the first rounds start with the service: measuring at once would only see them running
    this.loop.start(Math.min(this.periodMs, 10_000));
  }

  /**
   * Measures now unless another replica is measuring or measured within the period (`force`:
   * whatever the last measure's age, for tests), then takes the latest measure for the gauges.
   * Returns whether this call measured.
   */
  async runOnce(now = new Date(), force = false): Promise<boolean> {
    const measured = await this.prisma.$transaction(
      async (tx) => {
        const [lock] = await tx.$queryRaw<
          { locked: boolean }[]
        >`SELECT pg_try_advisory_xact_lock(hashtextextended('dedupe:store-verification', 0)) AS locked`;
        if (!lock?.locked) return false;
        const last = await tx.storeVerification.aggregate({ _max: { computedAt: true } });
        // a little early is fine: two replicas' timers drift
        const lastAt = last._max.computedAt?.getTime();
        if (!force && lastAt !== undefined && now.getTime() - lastAt < this.periodMs - 1_000) return false;
        const [ages, rounds] = await Promise.all([
          verificationAges(tx),
          recentRounds(tx, PROVIDER_SLUGS, this.settings.buckets),
        ]);
        const rows = PROVIDER_SLUGS.map((provider): StoreVerificationRow => {
          const age = ages.find((a) => a.provider === provider);
          const durations = (rounds.get(provider) ?? []).map((round) =>
            roundDurationMs(round, now.getTime(), PASS_STALE_MS),
          );
          const bound = verificationBound({
            intervalMs: this.settings.intervalMs,
            buckets: this.settings.buckets,
            roundDurationsMs: durations,
            maxAgeSeconds: age?.maxAgeSeconds ?? null,
            sightingStepMs: SIGHTING_STEP_MS,
          });
          return {
            provider,
            listedSources: age?.listedSources ?? 0,
            maxAgeSeconds: age?.maxAgeSeconds ?? null,
            p99AgeSeconds: age?.p99AgeSeconds ?? null,
            boundSeconds: bound.promisedSeconds,
            currentBoundSeconds: bound.currentSeconds,
            holds: bound.holds,
            computedAt: now,
          };
        });
        await tx.storeVerification.deleteMany({});
        await tx.storeVerification.createMany({ data: rows });
        return true;
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
    this.latest = await this.prisma.storeVerification.findMany({ orderBy: { provider: 'asc' } });
    return measured;
  }

  /** The latest measure, unless it is so old that the check must have stopped. */
  exported(now = Date.now()): StoreVerificationRow[] {
    return this.latest.filter((row) => now - row.computedAt.getTime() <= EXPORTED_PERIODS * this.periodMs);
  }
}
