import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { PROVIDER_SLUGS, refreshTopicsOf, type ProviderSlug, type RefreshFetchRequested } from '@jobs/contracts';
import { PrismaService, type Prisma } from '@jobs/db';
import { newId, type Logger } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import { nextBucket, planPass, planRound, type PlannedSweep } from './refresh-plan.js';

export const REFRESH_SETTINGS = Symbol('REFRESH_SETTINGS');
export interface RefreshSettings {
  /** REFRESH_INTERVAL_MS (operator.md) */
  intervalMs: number;
  /** Buckets of stored companies: every stored job is re-verified within this many passes. */
  buckets: number;
}

/**
 * Company domains per `companies` listing (one call pages through all of them). Small enough
 * that a bucket makes several sweeps per partner, which the fetcher runs side by side while the
 * partner has idle call slots: a slow partner's share of a pass takes seconds.
 */
export const COMPANIES_PER_SWEEP = 25;
/** One sweep's budget at the fetcher. */
export const SWEEP_TIMEOUT_MS = 120_000;
/** A pass whose sweeps have not all ended by then is over anyway (a sweep was lost). */
export const PASS_STALE_MS = 10 * 60_000;
/** How long a pass's rows are kept. */
const PASS_HISTORY_MS = 86_400_000;
/** While a pass runs or a request waits, the planner looks again this often. */
// While a pass runs: the merge of its last sweep kicks the planner, so this is only the fallback.
const BUSY_POLL_MS = 2_000;

/**
 * How late each partner shows a new posting (observed of the simulated market; a real partner's
 * would be measured the same way): its `new_listings` window reaches back this much further.
 */
export const LISTING_LAG_MS: Readonly<Partial<Record<ProviderSlug, number>>> = {
  own_index: 2 * 60_000,
  provider_a: 5 * 60_000,
  provider_b: 15 * 60_000,
  provider_c: 1 * 60_000,
  provider_d: 30 * 60_000,
  provider_e: 60 * 60_000,
  provider_f: 10 * 60_000,
};
const PARTNERS = PROVIDER_SLUGS.filter((p) => p !== 'own_index');

/** A sequence of the planner: passes (what moved) or re-verification rounds (one bucket each). */
export type RefreshSequence = 'pass' | 'round';
export type SequenceStart = { started: string } | { waiting: 'running' | 'interval' };
export type RefreshStart = Record<RefreshSequence, SequenceStart>;

/**
 * Refresh passes and re-verification rounds (dedupe owns the store and keeps it true): every
 * REFRESH_INTERVAL_MS, and at once for a `POST /admin/refresh`, the planner asks the
 * provider-fetcher for a pass's sweeps (partners' new listings, the own crawler's change feed;
 * `refresh.pass.fetch.requested`) and a round's (one bucket of stored companies, the own
 * crawler's whole catalog on bucket 0; `refresh.fetch.requested`), staged in dedupe's outbox
 * with their rows, so each is planned whole or not at all. A pass never starts while the last pass still runs, nor a round while the last
 * round does (a sweep without its final part, within PASS_STALE_MS); the two sequences do not wait
 * for each other, so what moved reaches the store within a pass however long a round takes. A
 * request is served by the next pass and the next round to start (each as soon as the one under
 * way ends). Replicas agree through an advisory lock.
 */
@Injectable()
export class RefreshPlanner implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    try {
      const outcome = await this.tryStart(new Date());
      if (Object.values(outcome).some((s) => 'started' in s || s.waiting === 'running')) return BUSY_POLL_MS;
      return await this.untilNextStart();
    } catch (error) {
      this.logger.warn({ err: error }, 'refresh planner failed; trying again');
      return Math.min(this.settings.intervalMs, 5_000);
    }
  });

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
    @Inject(REFRESH_SETTINGS) private readonly settings: RefreshSettings,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
  ) {
    drains.register('refresh-planner', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(this.settings.intervalMs);
  }

  /** An operator's request: served by the next pass and the next round (now, unless one runs). */
  async request(refreshId: string, requestedAt: Date): Promise<void> {
    await this.prisma.refreshRequest.createMany({ data: [{ id: refreshId, requestedAt }], skipDuplicates: true });
    this.loop.kick();
  }

  /** Looks again soon (a sweep just ended). */
  kick(): void {
    this.loop.kick();
  }

  /** Starts a pass and a round if each is due (a request waits, or the interval has passed) and none of its kind runs. */
  async tryStart(now: Date): Promise<RefreshStart> {
    const outcome = await this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('dedupe:refresh-planner', 0))`;
        return { pass: await this.startIfDue(tx, 'pass', now), round: await this.startIfDue(tx, 'round', now) };
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
    if ('started' in outcome.pass || 'started' in outcome.round) this.outbox.kick();
    return outcome;
  }

  private async startIfDue(tx: Prisma.TransactionClient, kind: RefreshSequence, now: Date): Promise<SequenceStart> {
    const last = await tx.refreshPass.findFirst({ where: { kind }, orderBy: { startedAt: 'desc' } });
    if (last && now.getTime() - last.startedAt.getTime() < PASS_STALE_MS) {
      const open = await tx.refreshSweep.count({ where: { passId: last.id, finishedAt: null } });
      if (open > 0) return { waiting: 'running' };
    }
    const servedBy = kind === 'pass' ? 'passId' : 'roundId';
    const queued = await tx.refreshRequest.findMany({ where: { [servedBy]: null }, orderBy: [{ requestedAt: 'asc' }, { id: 'asc' }], select: { id: true } });
    // on schedule: one per interval (a little early is fine: timers drift)
    if (queued.length === 0 && last && now.getTime() - last.startedAt.getTime() < this.settings.intervalMs - 250) return { waiting: 'interval' };
    // a pass takes the id of the first request it serves (the id the operator was given)
    const id = kind === 'pass' && queued[0] ? queued[0].id : newId('rfr');
    const trigger = queued.length > 0 ? 'request' : 'schedule';
    const bucket = kind === 'round' ? nextBucket(last?.bucket ?? null, this.settings.buckets) : null;
    const sweeps = bucket === null ? this.planPass(now, last?.startedAt ?? null) : await this.planRound(tx, bucket);
    // a day of passes and rounds is kept for GET /admin/refresh/{id}; older ones (and their sweeps) go
    const kept = new Date(now.getTime() - PASS_HISTORY_MS);
    await tx.refreshPass.deleteMany({ where: { kind, startedAt: { lt: kept } } });
    await tx.refreshRequest.deleteMany({ where: { requestedAt: { lt: kept }, passId: { not: null }, roundId: { not: null } } });
    await tx.refreshPass.create({ data: { id, kind, trigger, startedAt: now, bucket } });
    await tx.refreshSweep.createMany({ data: sweeps.map((s) => ({ passId: id, provider: s.provider, key: s.scope.key, kind: s.kind })) });
    const byTopic = new Map<ReturnType<typeof refreshTopicsOf>['fetch'], RefreshFetchRequested.Value[]>();
    for (const sweep of sweeps) {
      const topic = refreshTopicsOf(sweep.kind).fetch;
      byTopic.set(topic, [
        ...(byTopic.get(topic) ?? []),
        {
          v: 1,
          refresh_id: id,
          kind: sweep.kind,
          scope: sweep.scope,
          provider: sweep.provider,
          ...(sweep.postedSince !== undefined ? { posted_since: sweep.postedSince } : {}),
          ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
          timeout_ms: SWEEP_TIMEOUT_MS,
        },
      ]);
    }
    for (const [topic, values] of byTopic) await this.outbox.stageMany(tx, topic, values);
    if (queued.length > 0) await tx.refreshRequest.updateMany({ where: { id: { in: queued.map((q) => q.id) } }, data: { [servedBy]: id } });
    this.logger.info({ refresh_id: id, kind, trigger, bucket, sweeps: sweeps.length, requests: queued.length }, `refresh ${kind} started`);
    return { started: id };
  }

  private planPass(now: Date, lastPassAt: Date | null): PlannedSweep[] {
    return planPass({ now: now.getTime(), intervalMs: this.settings.intervalMs, lagMs: LISTING_LAG_MS, partners: PARTNERS, lastPassAt: lastPassAt?.getTime() ?? null });
  }

  private async planRound(tx: Prisma.TransactionClient, bucket: number): Promise<PlannedSweep[]> {
    const rows = await tx.$queryRaw<{ provider: ProviderSlug; domain: string }[]>`
      SELECT DISTINCT s.provider::text AS provider, c.domain
      FROM job_sources s JOIN canonical_jobs j ON j.id = s.canonical_job_id JOIN companies c ON c.id = j.company_id
      WHERE s.listed AND j.status = 'open' AND s.provider <> 'own_index' AND c.domain IS NOT NULL
        AND mod(abs(hashtext(c.domain)), ${this.settings.buckets}) = ${bucket}`;
    // Open jobs the own crawler stopped listing (it saw them close) wait only on their partners:
    // those companies are re-verified with those partners in this round, whatever their bucket.
    const closing = await tx.$queryRaw<{ provider: ProviderSlug; domain: string }[]>`
      SELECT DISTINCT p.provider::text AS provider, c.domain
      FROM job_sources o JOIN canonical_jobs j ON j.id = o.canonical_job_id JOIN companies c ON c.id = j.company_id
      JOIN job_sources p ON p.canonical_job_id = j.id AND p.listed AND p.provider <> 'own_index'
      WHERE o.provider = 'own_index' AND NOT o.listed AND j.status = 'open' AND c.domain IS NOT NULL`;
    const domainsByProvider = new Map<ProviderSlug, Set<string>>();
    for (const row of [...rows, ...closing]) domainsByProvider.set(row.provider, (domainsByProvider.get(row.provider) ?? new Set()).add(row.domain));
    return planRound({
      partners: PARTNERS,
      bucket,
      buckets: this.settings.buckets,
      batchSize: COMPANIES_PER_SWEEP,
      domainsByProvider: new Map([...domainsByProvider].map(([provider, domains]) => [provider, [...domains]])),
    });
  }

  /** Time until the next scheduled pass or round. */
  private async untilNextStart(): Promise<number> {
    const lasts = await Promise.all((['pass', 'round'] as const).map((kind) => this.prisma.refreshPass.findFirst({ where: { kind }, orderBy: { startedAt: 'desc' }, select: { startedAt: true } })));
    const next = Math.min(...lasts.map((last) => (last ? last.startedAt.getTime() + this.settings.intervalMs : Date.now())));
    return Math.max(BUSY_POLL_MS, next - Date.now());
  }
}
