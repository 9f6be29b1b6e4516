import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import {
  PROVIDER_SLUGS,
  REFRESH_SEQUENCES,
  refreshTopicsOf,
  type ProviderSlug,
  type RefreshFetchRequested,
  type RefreshSequenceKind,
} from '@jobs/contracts';
import { Prisma, PrismaService } from '@jobs/db';
import { newId, type Logger } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { notBoardListing } from '../crawler-boards/board-listings.js';
import { CloseRemovedBoardsUseCase } from '../crawler-boards/close-removed-boards.usecase.js';
import { DrainRegistry, KickableLoop, LOGGER } from '@jobs/service-kit';
import {
  decide,
  nextBucket,
  planBoardSweeps,
  planPass,
  planRound,
  refreshCallTimeoutMs,
  roundCycle,
  roundDueAt,
  type PlannedSweep,
  type RegisteredBoard,
  type RoundDomain,
  type RoundListing,
  type SequenceDecision,
  type SequenceState,
} from './refresh-plan.js';

export const REFRESH_SETTINGS = Symbol('REFRESH_SETTINGS');
export interface RefreshSettings {
  /** REFRESH_INTERVAL_MS (operator.md) */
  intervalMs: number;
  /**
   * REFRESH_BUCKETS: every stored job is re-verified with each provider within this many of its rounds (the freshness
   * bound, in intervals).
   */
  buckets: number;
  /**
   * How late each provider shows a new posting or change (REFRESH_LISTING_LAG_MS): its pass's window reaches back this
   * much further.
   */
  listingLagMs: Readonly<Record<ProviderSlug, number>>;
}

/** One sweep's budget at the fetcher (each of its calls has the shorter refresh call deadline). */
export const SWEEP_TIMEOUT_MS = 120_000;
/** A pass or round whose sweeps have not all ended by then is over anyway (a sweep was lost). */
export const PASS_STALE_MS = 10 * 60_000;
/** How long passes and rounds (and requests) are kept, for GET /admin/refresh/{id}. */
const PASS_HISTORY_MS = 86_400_000;
/** While a sequence runs, the planner looks again this often (the merge of a sweep's last part kicks it sooner). */
const BUSY_POLL_MS = 2_000;
/** The shortest wait for a sequence's due time (`decide` starts one up to 250 ms early). */
const DUE_WAIT_MIN_MS = 50;

export interface SequenceOutcome {
  kind: RefreshSequenceKind;
  provider: ProviderSlug;
  /** the pass or round started now, or why none did */
  outcome: { started: string } | Exclude<SequenceDecision, { start: unknown }>;
}

/**
 * Refresh passes and re-verification rounds, a sequence of each per provider (dedupe owns the
 * store and keeps it true; the rules are in refresh-plan.ts). Every REFRESH_INTERVAL_MS, and at
 * once for a `POST /admin/refresh`, each provider's next pass (`refresh.pass.fetch.requested`)
 * and round (`refresh.fetch.requested`) are planned for the provider-fetcher, staged in dedupe's
 * outbox with their rows, so each is planned whole or not at all. A sequence never starts while
 * its last run still has sweeps out (within PASS_STALE_MS), and waits for nothing else: a
 * provider that is slow or failing holds back only its own passes and rounds. A request is served,
 * in every sequence, by the first run to start at or after it. Replicas agree through an advisory
 * lock.
 */
@Injectable()
export class RefreshPlanner implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    try {
      const now = Date.now();
      await this.closeRemovedBoards.execute(new Date(now));
      const outcomes = await this.tryStart(new Date(now));
      let next = now + this.settings.intervalMs;
      for (const { outcome } of outcomes) {
        if ('started' in outcome || outcome.waiting === 'running') next = Math.min(next, now + BUSY_POLL_MS);
        else next = Math.min(next, outcome.dueAt);
      }
      // a sequence due sooner than the busy poll is looked at when due: a round started late
      // shortens the slack of the freshness bound, every round of a cycle adding its delay
      return Math.max(DUE_WAIT_MIN_MS, next - Date.now());
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
    private readonly closeRemovedBoards: CloseRemovedBoardsUseCase,
  ) {
    drains.register('refresh-planner', () => this.loop.stop());
  }

  onApplicationBootstrap(): void {
    this.loop.start(this.settings.intervalMs);
  }

  /** An operator's request (received now): served by each provider's next pass and round. */
  async request(refreshId: string, receivedAt = new Date()): Promise<void> {
    await this.prisma.refreshRequest.createMany({
      data: [{ id: refreshId, requestedAt: receivedAt }],
      skipDuplicates: true,
    });
    this.loop.kick();
  }

  /** Looks again soon (a sweep just ended). */
  kick(): void {
    this.loop.kick();
  }

  /**
   * Starts every provider's pass and round that is due (a request waits, or its interval has passed) and not running.
   */
  async tryStart(now: Date): Promise<SequenceOutcome[]> {
    const outcomes = await this.prisma.$transaction(
      async (tx) => {
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtextextended('dedupe:refresh-planner', 0))`;
        const [states, latestRequestAt] = await Promise.all([sequenceStates(tx), latestRequest(tx)]);
        const rules = {
          now: now.getTime(),
          intervalMs: this.settings.intervalMs,
          staleMs: PASS_STALE_MS,
          latestRequestAt,
        };
        const decided = states.map((state) => ({ state, decision: decide(state, rules) }));
        const due = decided.filter(
          (d): d is { state: SequenceState; decision: { start: 'schedule' | 'request' } } => 'start' in d.decision,
        );
        const started = due.length > 0 ? await this.start(tx, now, due) : new Map<string, string>();
        return decided.map(({ state, decision }): SequenceOutcome => {
          const id = started.get(`${state.kind}:${state.provider}`);
          return {
            kind: state.kind,
            provider: state.provider,
            outcome: id ? { started: id } : (decision as SequenceOutcome['outcome']),
          };
        });
      },
      { timeout: 30_000, maxWait: 10_000 },
    );
    if (outcomes.some((o) => 'started' in o.outcome)) this.outbox.kick();
    return outcomes;
  }

  /** Plans and records the due runs, their sweeps staged in the outbox; returns each run's id by `kind:provider`. */
  private async start(
    tx: Prisma.TransactionClient,
    now: Date,
    due: ReadonlyArray<{ state: SequenceState; decision: { start: 'schedule' | 'request' } }>,
  ): Promise<Map<string, string>> {
    const cycle = roundCycle(this.settings.buckets);
    const rounds = due
      .filter((d) => d.state.kind === 'round')
      .map((d) => ({
        provider: d.state.provider,
        bucket: nextBucket(d.state.last?.bucket ?? null, cycle),
        first: d.state.last === null,
        // a round given up with sweeps out (they were lost): its whole bucket is read again
        lostBucket: d.state.last && d.state.last.openSweeps > 0 ? d.state.last.bucket : null,
        // closings the provider's last round may not have taken yet: an absence is dated by the
        // fetcher's read, and merged after it (a part waits behind its provider's others), so a
        // whole cycle of rounds before the last round began; older ones are read with their bucket
        closingsSince: d.state.last ? new Date(d.state.last.startedAt - cycle * this.settings.intervalMs) : null,
      }));
    const scopes = await this.roundScopes(tx, cycle, rounds);
    const passProviders = due.filter((d) => d.state.kind === 'pass').map((d) => d.state.provider);
    const lastReads = await lastReadPasses(tx, passProviders);
    const boards = passProviders.includes('own_index') ? await registeredBoards(tx) : [];
    const runs = due.map(({ state, decision }) => {
      const bucket = rounds.find((r) => state.kind === 'round' && r.provider === state.provider)?.bucket ?? null;
      const sweeps: PlannedSweep[] =
        state.kind === 'pass'
          ? [
              planPass({
                provider: state.provider,
                now: now.getTime(),
                intervalMs: this.settings.intervalMs,
                lagMs: this.settings.listingLagMs[state.provider],
                lastReadAt: lastReads.get(state.provider) ?? null,
              }),
              ...(state.provider === 'own_index' ? planBoardSweeps(boards) : []),
            ]
          : planRound({
              provider: state.provider,
              bucket: bucket!,
              firstRound: state.last === null,
              cycle,
              domains: scopes.get(state.provider)?.domains ?? [],
              listings: scopes.get(state.provider)?.listings ?? [],
            });
      return { id: newId('rfr'), kind: state.kind, provider: state.provider, trigger: decision.start, bucket, sweeps };
    });
    // A day of passes and rounds is kept for GET /admin/refresh/{id}; older ones (and their sweeps)
    // go, but for each provider's last pass that read its window, however old: after a longer
    // outage the next pass reaches back to it (lastReadPasses), or the postings listed meanwhile
    // at companies the store does not know would never be read.
    const kept = new Date(now.getTime() - PASS_HISTORY_MS);
    await tx.$executeRaw`
      DELETE FROM refresh_passes p WHERE p.started_at < ${kept} AND p.id <> ALL (ARRAY(
        SELECT last.id FROM unnest(${[...PROVIDER_SLUGS]}::text[]) AS due(provider)
        JOIN LATERAL (
          SELECT q.id FROM refresh_passes q JOIN refresh_sweeps s ON s.pass_id = q.id
          WHERE q.kind = 'pass' AND q.provider = due.provider::provider AND s.ok AND s.kind <> 'board'
          ORDER BY q.started_at DESC LIMIT 1
        ) last ON true))`;
    await tx.refreshRequest.deleteMany({ where: { requestedAt: { lt: kept } } });
    await tx.refreshPass.createMany({
      data: runs.map((r) => ({
        id: r.id,
        kind: r.kind,
        provider: r.provider,
        trigger: r.trigger,
        startedAt: now,
        bucket: r.bucket,
      })),
    });
    await tx.refreshSweep.createMany({
      data: runs.flatMap((r) =>
        r.sweeps.map((s) => ({ passId: r.id, provider: s.provider, key: s.scope.key, kind: s.kind })),
      ),
    });
    const callTimeoutMs = refreshCallTimeoutMs(this.settings.intervalMs);
    const dueAt = roundDueAt(now.getTime(), this.settings.intervalMs);
    const byTopic = new Map<ReturnType<typeof refreshTopicsOf>['fetch'], RefreshFetchRequested.Value[]>();
    for (const run of runs) {
      for (const sweep of run.sweeps) {
        const topic = refreshTopicsOf(sweep.kind).fetch;
        const requests = byTopic.get(topic) ?? [];
        requests.push(sweepRequest(run.id, sweep, callTimeoutMs, run.kind === 'round' ? dueAt : undefined));
        byTopic.set(topic, requests);
      }
    }
    for (const [topic, values] of byTopic) await this.outbox.stageMany(tx, topic, values);
    for (const run of runs) {
      this.logger.debug(
        {
          refresh_id: run.id,
          kind: run.kind,
          provider: run.provider,
          trigger: run.trigger,
          bucket: run.bucket,
          sweeps: run.sweeps.length,
        },
        `refresh ${run.kind} started`,
      );
    }
    return new Map(runs.map((r) => [`${r.kind}:${r.provider}`, r.id]));
  }

  /**
   * Per provider with a round due, the companies of its round with how many open jobs it lists
   * there and when it saw the oldest: those of the round's bucket (and of its last round's bucket
   * when that round lost a sweep: no part of it may be taken as read); those its sweeps owe a read
   * (`refresh_owed_reads`: a sweep that did not read its scope whole, a job that moved there
   * after its bucket's round), taken and deleted here; and those of open jobs it lists that the
   * own crawler saw close in the cycle before the provider's last round began (their partners
   * decide the closure; an older one is re-verified with its bucket): jobs none of whose own crawler
   * listings is listed any more; a re-listed opening's old listing, unlisted beside its new one,
   * does not make its job closing. A listing at a company without a domain is its own entry,
   * bucketed by its id and read by id, by the same rules. Every part is reached by index from
   * the round's companies, listings and jobs, so a round's planning reads its bucket, not the
   * store. The own crawler's first round reads its whole catalog instead.
   */
  private async roundScopes(
    tx: Prisma.TransactionClient,
    cycle: number,
    rounds: ReadonlyArray<{
      provider: ProviderSlug;
      bucket: number;
      first: boolean;
      lostBucket: number | null;
      closingsSince: Date | null;
    }>,
  ): Promise<Map<ProviderSlug, RoundScopes>> {
    const byCompany = rounds.filter((r) => !(r.first && r.provider === 'own_index'));
    const byProvider = new Map<ProviderSlug, RoundScopes>();
    if (byCompany.length === 0) return byProvider;
    const since = byCompany.map((r) => (r.closingsSince ?? new Date(0)).toISOString());
    const earliest = since.reduce((a, b) => (a < b ? a : b));
    const rows = await tx.$queryRaw<
      {
        provider: ProviderSlug;
        domain: string | null;
        listing_id: string | null;
        listings: number;
        oldest_seen_at: Date;
      }[]
    >`
      WITH due AS MATERIALIZED (
        SELECT d.provider::provider AS provider, d.bucket, d.lost_bucket, d.closings_since
        FROM unnest(${byCompany.map((r) => r.provider)}::text[], ${byCompany.map((r) => r.bucket)}::int[],
          ${byCompany.map((r) => r.lostBucket ?? -1)}::int[], ${since}::timestamptz[])
          AS d(provider, bucket, lost_bucket, closings_since)
      ), owed AS MATERIALIZED (
        DELETE FROM refresh_owed_reads o USING due d WHERE o.provider = d.provider RETURNING o.provider, o.kind, o.value
      ), closing AS MATERIALIZED (
        SELECT u.canonical_job_id, max(u.unlisted_at) AS unlisted_at
        FROM job_sources u JOIN canonical_jobs j ON j.id = u.canonical_job_id AND j.status = 'open'
        WHERE u.provider = 'own_index' AND NOT u.listed AND u.unlisted_at >= ${earliest}::timestamptz AND NOT EXISTS (
          SELECT 1 FROM job_sources l WHERE l.canonical_job_id = u.canonical_job_id AND l.provider = 'own_index' AND l.listed)
        GROUP BY u.canonical_job_id
      ), round_companies AS (
        SELECT d.provider, c.id AS company_id
        FROM due d JOIN companies c ON c.domain IS NOT NULL AND
          mod(abs(hashtext(c.domain)), ${cycle}::int) IN (d.bucket, d.lost_bucket)
        UNION
        SELECT o.provider, c.id FROM owed o JOIN companies c ON o.kind = 'domain' AND c.domain = o.value
        UNION
        SELECT s.provider, j.company_id
        FROM closing x JOIN canonical_jobs j ON j.id = x.canonical_job_id
        JOIN job_sources s ON s.canonical_job_id = j.id AND s.listed
        JOIN due d ON d.provider = s.provider AND d.provider <> 'own_index' AND x.unlisted_at >= d.closings_since
      ), by_domain AS (
        SELECT r.provider, c.domain, NULL::text AS listing_id, count(*)::int AS listings,
          min(s.last_seen_at) AS oldest_seen_at
        FROM round_companies r JOIN companies c ON c.id = r.company_id AND c.domain IS NOT NULL
        JOIN canonical_jobs j ON j.company_id = r.company_id AND j.status = 'open'
        JOIN job_sources s ON s.canonical_job_id = j.id AND s.provider = r.provider AND s.listed AND ${notBoardListing}
        GROUP BY r.provider, c.domain
      )
      SELECT provider::text AS provider, domain, listing_id, listings, oldest_seen_at FROM by_domain
      UNION ALL
      SELECT s.provider::text, NULL, s.provider_job_id, 1, s.last_seen_at
      FROM companies c JOIN canonical_jobs j ON j.company_id = c.id AND j.status = 'open'
      JOIN job_sources s ON s.canonical_job_id = j.id AND s.listed
      JOIN due d ON d.provider = s.provider
      WHERE c.domain IS NULL AND (
        mod(abs(hashtext(s.provider_job_id)), ${cycle}::int) IN (d.bucket, d.lost_bucket) OR
        EXISTS (SELECT 1 FROM owed o WHERE o.provider = s.provider AND o.kind = 'listing' AND o.value = s.provider_job_id) OR
        (d.provider <> 'own_index' AND
          j.id IN (SELECT canonical_job_id FROM closing x WHERE x.unlisted_at >= d.closings_since)))`;
    for (const row of rows) {
      let scopes = byProvider.get(row.provider);
      if (!scopes) byProvider.set(row.provider, (scopes = { domains: [], listings: [] }));
      const seenAt = row.oldest_seen_at.getTime();
      if (row.domain !== null)
        scopes.domains.push({ domain: row.domain, listings: row.listings, oldestSeenAt: seenAt });
      else if (row.listing_id !== null) scopes.listings.push({ providerJobId: row.listing_id, seenAt });
    }
    return byProvider;
  }
}

/** What one provider's round reads: companies by domain, and listings at companies without one by id. */
interface RoundScopes {
  domains: RoundDomain[];
  listings: RoundListing[];
}

/** Each sequence's last run and how many of its sweeps are out: one index probe per sequence. */
async function sequenceStates(tx: Prisma.TransactionClient): Promise<SequenceState[]> {
  const kinds = REFRESH_SEQUENCES.map((s) => s.kind);
  const providers = REFRESH_SEQUENCES.map((s) => s.provider);
  const rows = await tx.$queryRaw<
    {
      kind: RefreshSequenceKind;
      provider: ProviderSlug;
      started_at: Date | null;
      bucket: number | null;
      open: number | null;
    }[]
  >`
    SELECT seq.kind, seq.provider, last.started_at, last.bucket,
      (SELECT count(*)::int FROM refresh_sweeps s WHERE s.pass_id = last.id AND s.finished_at IS NULL) AS open
    FROM unnest(${kinds}::text[], ${providers}::text[]) AS seq(kind, provider)
    LEFT JOIN LATERAL (
      SELECT p.id, p.started_at, p.bucket FROM refresh_passes p
      WHERE p.kind = seq.kind AND p.provider = seq.provider::provider
      ORDER BY p.started_at DESC LIMIT 1
    ) last ON true`;
  return rows.map((r) => ({
    kind: r.kind,
    provider: r.provider,
    last: r.started_at ? { startedAt: r.started_at.getTime(), bucket: r.bucket, openSweeps: r.open ?? 0 } : null,
  }));
}

async function latestRequest(tx: Prisma.TransactionClient): Promise<number | null> {
  const latest = await tx.refreshRequest.findFirst({ orderBy: { requestedAt: 'desc' }, select: { requestedAt: true } });
  return latest?.requestedAt.getTime() ?? null;
}

/** Per provider, when its last pass that read its window (every call answered) started. */
async function lastReadPasses(
  tx: Prisma.TransactionClient,
  providers: readonly ProviderSlug[],
): Promise<Map<ProviderSlug, number>> {
  if (providers.length === 0) return new Map();
  const rows = await tx.$queryRaw<{ provider: ProviderSlug; started_at: Date }[]>`
    SELECT due.provider, last.started_at
    FROM unnest(${[...providers]}::text[]) AS due(provider)
    JOIN LATERAL (
      SELECT p.started_at FROM refresh_passes p JOIN refresh_sweeps s ON s.pass_id = p.id
      WHERE p.kind = 'pass' AND p.provider = due.provider::provider AND s.ok AND s.kind <> 'board'
      ORDER BY p.started_at DESC LIMIT 1
    ) last ON true`;
  return new Map(rows.map((r) => [r.provider, r.started_at.getTime()]));
}

/** The boards the own crawler reads, with their last good read's validators. */
async function registeredBoards(tx: Prisma.TransactionClient): Promise<RegisteredBoard[]> {
  const rows = await tx.$queryRaw<
    {
      ats: RegisteredBoard['ats'];
      board: string;
      base_url: string;
      company_domain: string;
      company_name: string;
      etag: string | null;
      last_modified: string | null;
      content_hash: string | null;
    }[]
  >`
    SELECT b.ats, b.board, b.base_url, b.company_domain, b.company_name, r.etag, r.last_modified, r.content_hash
    FROM crawler_boards b LEFT JOIN crawler_board_reads r ON r.ats = b.ats AND r.board = b.board
    ORDER BY b.ats, b.board`;
  return rows.map((r) => ({
    ats: r.ats,
    board: r.board,
    baseUrl: r.base_url,
    companyDomain: r.company_domain,
    companyName: r.company_name,
    validators: {
      ...(r.etag ? { etag: r.etag } : {}),
      ...(r.last_modified ? { last_modified: r.last_modified } : {}),
      ...(r.content_hash ? { content_hash: r.content_hash } : {}),
    },
  }));
}

/** A sweep's message; a round's carries when the round is due (`dueAt`), which the fetcher paces it by. */
function sweepRequest(
  refreshId: string,
  sweep: PlannedSweep,
  callTimeoutMs: number,
  dueAt: number | undefined,
): RefreshFetchRequested.Value {
  return {
    v: 1,
    refresh_id: refreshId,
    kind: sweep.kind,
    scope: sweep.scope,
    provider: sweep.provider,
    ...(sweep.listedSince !== undefined ? { listed_since: sweep.listedSince } : {}),
    ...(sweep.changedSince !== undefined ? { changed_since: sweep.changedSince } : {}),
    timeout_ms: SWEEP_TIMEOUT_MS,
    call_timeout_ms: callTimeoutMs,
    ...(dueAt !== undefined ? { due_at: dueAt } : {}),
  };
}
