import { Injectable } from '@nestjs/common';
import { REFRESH_SEQUENCES, Topics, type ProviderSlug } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { newId } from '@jobs/observability';
import { ApiError } from '../http/api-error.js';

interface SweepCounts {
  total: number;
  /** ended, well or not */
  finished: number;
  /** read whole (a round's): absences were judged */
  complete: number;
  /** every call answered */
  ok: number;
}

/** One provider's pass or round that serves a request. */
export interface RefreshRun {
  /** the run's own id (its sweeps' `refresh_id` on Kafka) */
  id: string;
  kind: 'pass' | 'round';
  provider: ProviderSlug;
  started_at: string;
  sweeps: SweepCounts;
}

/** One provider's part of the store as dedupe last measured it (its `store_verification` row). */
export interface ProviderVerification {
  /** seconds since the provider last saw the oldest of its listed sources of open jobs (null: it lists none) */
  max_age_seconds: number | null;
  p99_age_seconds: number | null;
  listed_sources: number;
  /** the promised freshness bound: REFRESH_BUCKETS x REFRESH_INTERVAL_MS */
  bound_seconds: number;
  /** REFRESH_BUCKETS x the longer of the interval and the provider's longest recent round */
  current_bound_seconds: number;
  /**
   * the promise holds: every one of its latest REFRESH_BUCKETS rounds fitted in an interval, and max_age_seconds is
   * within bound_seconds
   */
  holds: boolean;
}

export interface StoreVerificationStatus {
  /** when dedupe measured (every REFRESH_INTERVAL_MS, at most once a minute) */
  measured_at: string;
  providers: Partial<Record<ProviderSlug, ProviderVerification>>;
}

export interface RefreshStatus {
  refresh_id: string;
  /**
   * queued: no pass or round serves it yet; running: some provider's are still to start or to end; completed: every
   * provider's pass and round ended
   */
  status: 'queued' | 'running' | 'completed';
  requested_at: string;
  /** when the first run serving it started */
  started_at: string | null;
  /** each provider's pass and round that serve it, once started */
  runs: RefreshRun[];
  sweeps: SweepCounts;
  /** how fresh the store is per provider, as dedupe last measured it; null until it has */
  verification: StoreVerificationStatus | null;
}

/**
 * POST /admin/refresh: asks for one refresh now (every provider's pass: partners' new listings
 * and the own crawler's changes; and its re-verification round: one bucket of stored companies,
 * the own crawler's whole catalog on bucket 0; watches follow from the changes), by publishing
 * `refresh.requested` for dedupe's refresh planner. Answered (202) once Kafka has the request.
 * GET /admin/refresh/{refresh_id} (an operator addition) says how far the passes and rounds that
 * serve it are (in each provider's sequence, the first to start at or after the request), read
 * from the planner's tables: completed once every one of them has ended. Its `verification`
 * block is dedupe's latest measure of the store's freshness (`store_verification`): measuring it
 * scans every listed source, which a status polled while a refresh runs must not repeat, and
 * only dedupe knows the bucket count the bound depends on.
 */
@Injectable()
export class RequestRefreshUseCase {
  constructor(
    private readonly publisher: KafkaPublisher,
    private readonly prisma: PrismaService,
  ) {}

  async execute(): Promise<{ status: 'accepted'; refresh_id: string }> {
    const refreshId = newId('rfr');
    await this.publisher.publish(Topics.RefreshRequested, {
      v: 1,
      refresh_id: refreshId,
      requested_at: new Date().toISOString(),
    });
    return { status: 'accepted', refresh_id: refreshId };
  }

  async status(refreshId: string): Promise<RefreshStatus> {
    const request = await this.prisma.refreshRequest.findUnique({ where: { id: refreshId } });
    if (!request)
      throw new ApiError('not_found', `No refresh ${refreshId} (a request just made may take a moment to arrive).`);
    const [rows, verification] = await Promise.all([this.runs(request.requestedAt), this.verification()]);
    const runs = rows.map((r): RefreshRun => ({
      id: r.id,
      kind: r.kind,
      provider: r.provider,
      started_at: r.started_at.toISOString(),
      sweeps: { total: r.total, finished: r.finished, complete: r.complete, ok: r.ok },
    }));
    const sweeps = runs.reduce(
      (sum, r) => ({
        total: sum.total + r.sweeps.total,
        finished: sum.finished + r.sweeps.finished,
        complete: sum.complete + r.sweeps.complete,
        ok: sum.ok + r.sweeps.ok,
      }),
      { total: 0, finished: 0, complete: 0, ok: 0 },
    );
    const ended = runs.length === REFRESH_SEQUENCES.length && sweeps.finished === sweeps.total;
    return {
      refresh_id: refreshId,
      status: runs.length === 0 ? 'queued' : ended ? 'completed' : 'running',
      requested_at: request.requestedAt.toISOString(),
      started_at: runs.map((r) => r.started_at).sort()[0] ?? null,
      runs,
      sweeps,
      verification,
    };
  }

  /**
   * In each provider's sequence of passes and of rounds, the first run to start at or after the request, with its
   * sweeps counted.
   */
  private runs(requestedAt: Date) {
    const kinds = REFRESH_SEQUENCES.map((s) => s.kind);
    const providers = REFRESH_SEQUENCES.map((s) => s.provider);
    return this.prisma.$queryRaw<
      {
        id: string;
        kind: 'pass' | 'round';
        provider: ProviderSlug;
        started_at: Date;
        total: number;
        finished: number;
        complete: number;
        ok: number;
      }[]
    >`
      SELECT run.id, seq.kind, seq.provider, run.started_at,
        count(s.key)::int AS total, count(s.finished_at)::int AS finished, count(*) FILTER (WHERE s.complete)::int AS
          complete, count(*) FILTER (WHERE s.ok)::int AS ok
      FROM unnest(${kinds}::text[], ${providers}::text[]) AS seq(kind, provider)
      JOIN LATERAL (
        SELECT p.id, p.started_at FROM refresh_passes p
        WHERE p.kind = seq.kind AND p.provider = seq.provider::provider AND p.started_at >= ${requestedAt}
        ORDER BY p.started_at LIMIT 1
      ) run ON true
      LEFT JOIN refresh_sweeps s ON s.pass_id = run.id
      GROUP BY run.id, seq.kind, seq.provider, run.started_at
      ORDER BY seq.kind, seq.provider`;
  }

  private async verification(): Promise<StoreVerificationStatus | null> {
    const rows = await this.prisma.storeVerification.findMany({ orderBy: { provider: 'asc' } });
    if (rows.length === 0) return null;
    return {
      measured_at: new Date(Math.max(...rows.map((r) => r.computedAt.getTime()))).toISOString(),
      providers: Object.fromEntries(
        rows.map((r) => [
          r.provider,
          {
            max_age_seconds: r.maxAgeSeconds,
            p99_age_seconds: r.p99AgeSeconds,
            listed_sources: r.listedSources,
            bound_seconds: r.boundSeconds,
            current_bound_seconds: r.currentBoundSeconds,
            holds: r.holds,
          },
        ]),
      ),
    };
  }
}
