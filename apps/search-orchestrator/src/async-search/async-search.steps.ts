import { Inject, Injectable } from '@nestjs/common';
import {
  AsyncSearchCreateRequestSchema,
  ChunkPositionSchema,
  JobSchema,
  ProviderSlugSchema,
  tolerantReaderOf,
  Topics,
  type AsyncSearchCreateRequest,
  type AsyncSearchFinalStatus,
  type AsyncSearchStatus,
  type ChunkPosition,
  type Job,
  type ProviderSlug,
} from '@jobs/contracts';
import type { Prisma } from '@jobs/db';
import { OutboxRelay } from '@jobs/outbox';
import { SearchMetrics } from '../search/search-metrics.js';
import {
  ASYNC_SEARCH_POOL,
  recordAdmissionWait,
  takeWaitingSearches,
  type AsyncSearchPoolConfig,
} from './async-search-pool.js';
import { z } from 'zod';
import {
  CHUNK_SIZE,
  completionEventId,
  coverageCounts,
  firstPosition,
  nextStep,
  searchMetadata,
  type FailureCode,
  type LegState,
  type LegView,
  type MatchContext,
} from './collection.js';

export type Tx = Prisma.TransactionClient;
type SearchRow = Prisma.AsyncSearchGetPayload<object>;
type LegRow = Prisma.AsyncSearchLegGetPayload<object>;

/** What is read back from the tables is checked like any other boundary. */
const WavesSchema = z.array(z.array(ProviderSlugSchema).min(1)).min(1);

/** An async search as the steps use it: the row with its JSON columns checked. */
export interface LoadedSearch {
  row: SearchRow;
  request: AsyncSearchCreateRequest;
  waves: ProviderSlug[][];
  status: AsyncSearchStatus;
}

export function loadSearch(row: SearchRow): LoadedSearch {
  return {
    row,
    // read as a message is: fields a later version stored are kept (tolerantReaderOf)
    request: tolerantReaderOf(AsyncSearchCreateRequestSchema).parse(row.request),
    waves: WavesSchema.parse(row.waves),
    status: row.status as AsyncSearchStatus,
  };
}

export function legView(row: LegRow): LegView {
  return {
    provider: row.provider,
    wave: row.wave,
    state: row.state as LegState,
    failure: (row.failure as FailureCode | null) ?? null,
    matched: row.matched,
    duplicatesMerged: row.duplicatesMerged,
  };
}

export const positionOf = (leg: LegRow): ChunkPosition => ChunkPositionSchema.parse(leg.position);

/** Which chunk of which provider's leg to ask for, on which try, from where in its listing. */
export interface ChunkAsk {
  provider: ProviderSlug;
  chunk: number;
  attempt: number;
  from: ChunkPosition;
}

/** A leg's current chunk and try, asked again from where the leg stands. */
export const legAsk = (leg: LegRow): ChunkAsk => ({
  provider: leg.provider,
  chunk: leg.chunk,
  attempt: leg.attempt,
  from: positionOf(leg),
});
export const jobOf = (value: unknown): Job => JobSchema.parse(value);

export function matchContext(search: LoadedSearch): MatchContext {
  const { waterfall, filters } = search.request;
  return { filters, strategy: waterfall.strategy, minSources: waterfall.min_sources, asOf: search.row.asOf.getTime() };
}

/**
 * The transactional steps every async search handler shares. Each runs inside the handler's
 * transaction, after the search row was locked (`lock`), so one search's steps serialize across
 * replicas and partitions; every message they send is staged in the outbox of that transaction,
 * so a state change and its messages commit together or not at all (SIGKILL-safe).
 */
@Injectable()
export class AsyncSearchSteps {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly outbox: OutboxRelay,
    @Inject(ASYNC_SEARCH_POOL) private readonly pool: AsyncSearchPoolConfig,
  ) {}

  /**
   * Starts waiting live searches on the async pool's free places (a new one's first wave, a
   * resumed one's collection again): after a search is stored, after one finishes or is resumed,
   * and on every sweep.
   */
  async startWaiting(tx: Tx): Promise<void> {
    for (const row of await takeWaitingSearches(tx, this.pool)) {
      const search = loadSearch(row);
      if (row.status === 'on_hold') await this.collectAgain(tx, search);
      else {
        recordAdmissionWait(row);
        await this.startWave(tx, search, 0);
      }
    }
  }

  /**
   * A search on hold that wants to resume, given a place: running, its held jobs sent to billing
   * again (new batches, in collection order), its paused providers asked for their next chunks.
   */
  private async collectAgain(tx: Tx, search: LoadedSearch): Promise<void> {
    search.row = await tx.asyncSearch.update({
      where: { id: search.row.id },
      data: { status: 'running', resumeWantedAt: null },
    });
    search.status = 'running';
    const rows = await tx.asyncSearchResult.findMany({
      where: { searchId: search.row.id, state: 'held' },
      orderBy: { seq: 'asc' },
      select: { jobId: true },
    });
    for (let start = 0; start < rows.length; start += CHUNK_SIZE) {
      const jobIds = rows.slice(start, start + CHUNK_SIZE).map((r) => r.jobId);
      const batch = search.row.chargeSeq + 1;
      await tx.asyncSearchResult.updateMany({
        where: { searchId: search.row.id, jobId: { in: jobIds } },
        data: { state: 'pending', chargeBatch: batch },
      });
      search.row = await tx.asyncSearch.update({ where: { id: search.row.id }, data: { chargeSeq: batch } });
      await this.askCharge(tx, search, batch, jobIds);
    }
    await this.advance(tx, search);
  }

  /** Locks the search row for this transaction; null when it does not exist. */
  async lock(tx: Tx, searchId: string): Promise<LoadedSearch | null> {
    const locked = await tx.$queryRaw<
      { id: string }[]
    >`SELECT id FROM async_searches WHERE id = ${searchId} FOR UPDATE`;
    if (locked.length === 0) return null;
    return loadSearch(await tx.asyncSearch.findUniqueOrThrow({ where: { id: searchId } }));
  }

  /** Stages the request of a leg's current chunk (and try); the deadline runs from now. */
  async askChunk(tx: Tx, search: LoadedSearch, { provider, chunk, attempt, from }: ChunkAsk): Promise<void> {
    const { request, row } = search;
    await this.outbox.stage(tx, Topics.AsyncChunkRequested, {
      v: 1,
      search_id: row.id,
      provider,
      chunk,
      attempt,
      from,
      filters: request.filters,
      want: CHUNK_SIZE,
      as_of: row.asOf.getTime(),
      timeout_ms: request.waterfall.timeout_ms,
      ...(provider === 'own_index'
        ? { index_scope: { providers_routable: row.providersEnabled.map((p) => ProviderSlugSchema.parse(p)) } }
        : {}),
      // the store keeps to what the search keeps (collection.ts checks it again for every leg)
      ...(provider === 'own_index' && request.waterfall.strategy === 'consensus'
        ? { min_sources: request.waterfall.min_sources }
        : {}),
    });
  }

  /** Opens the legs of a wave and asks each provider for its first chunk. */
  async startWave(tx: Tx, search: LoadedSearch, wave: number): Promise<void> {
    const providers = search.waves[wave] ?? [];
    await tx.asyncSearchLeg.createMany({
      data: providers.map((provider) => ({
        searchId: search.row.id,
        provider,
        wave,
        state: 'fetching',
        position: firstPosition(provider) as Prisma.InputJsonValue,
      })),
      skipDuplicates: true,
    });
    for (const provider of providers)
      await this.askChunk(tx, search, { provider, chunk: 0, attempt: 0, from: firstPosition(provider) });
  }

  /** Stages one charge batch of result rows (their jobs in collection order). */
  async askCharge(tx: Tx, search: LoadedSearch, batch: number, jobIds: string[]): Promise<void> {
    await this.outbox.stage(tx, Topics.AsyncChunkChargeRequested, {
      v: 1,
      search_id: search.row.id,
      account_id: search.row.accountId,
      mode: search.row.mode,
      batch,
      operation: 'POST /v1/searches',
      max_credits: search.request.waterfall.max_credits ?? null,
      job_ids: jobIds,
    });
  }

  /** Result rows of a search waiting for billing (pending) and for credits (held), in one statement. */
  async inFlight(tx: Tx, searchId: string): Promise<{ pending: number; held: number }> {
    const [counts] = await tx.$queryRaw<{ pending: number; held: number }[]>`
      SELECT count(*) FILTER (WHERE state = 'pending')::int AS pending, count(*) FILTER (WHERE state = 'held')::int AS
        held
      FROM async_search_results WHERE search_id = ${searchId} AND state IN ('pending', 'held')`;
    return counts ?? { pending: 0, held: 0 };
  }

  /**
   * After any step: apply the state machine (`nextStep`): ask paused legs again, open the next
   * wave, or finish the search. Marks progress for the sweeper.
   */
  async advance(tx: Tx, search: LoadedSearch): Promise<void> {
    const legs = await tx.asyncSearchLeg.findMany({ where: { searchId: search.row.id }, orderBy: [{ wave: 'asc' }] });
    const { pending, held } = await this.inFlight(tx, search.row.id);
    const step = nextStep({
      status: search.status,
      limit: search.request.limit,
      jobsFound: search.row.jobsFound,
      capReached: search.row.capReached,
      pending,
      held,
      wave: search.row.wave,
      waves: search.waves.length,
      legs: orderLegs(legs, search.waves).map(legView),
    });
    switch (step.kind) {
      case 'wait':
        break;
      case 'drive':
        for (const leg of legs.filter((l) => step.providers.includes(l.provider))) {
          await tx.asyncSearchLeg.update({
            where: { searchId_provider: { searchId: leg.searchId, provider: leg.provider } },
            data: { state: 'fetching' },
          });
          await this.askChunk(tx, search, legAsk(leg));
        }
        break;
      case 'next_wave':
        await tx.asyncSearch.update({ where: { id: search.row.id }, data: { wave: search.row.wave + 1 } });
        await this.startWave(tx, search, search.row.wave + 1);
        break;
      case 'finish':
        await this.finish(tx, search, step.status, legs);
        return;
    }
    await tx.asyncSearch.update({ where: { id: search.row.id }, data: { progressAt: new Date() } });
  }

  /**
   * Ends the search: legs still reading stop, the metadata is written, and `search.completed`
   * (event id derived from the search id) is staged in this same transaction.
   */
  async finish(tx: Tx, search: LoadedSearch, status: AsyncSearchFinalStatus, legs: LegRow[]): Promise<void> {
    const searchId = search.row.id;
    await tx.asyncSearchLeg.updateMany({
      where: { searchId, state: { in: ['fetching', 'paused'] } },
      data: { state: 'stopped' },
    });
    const contributions = await tx.asyncSearchResult.groupBy({
      by: ['provider'],
      where: { searchId, state: 'collected' },
      _count: { _all: true },
    });
    const creditsRemaining = search.row.creditsRemaining ?? (await accountCredits(tx, search.row.accountId));
    const now = new Date();
    const metadata = searchMetadata({
      requestId: search.row.requestId,
      legs: orderLegs(legs, search.waves).map(legView),
      contributions: Object.fromEntries(contributions.map((c) => [c.provider, c._count._all])),
      coverage: z.record(z.string(), z.number()).parse(search.row.coverageCounts),
      jobsFound: search.row.jobsFound,
      creditsCharged: search.row.creditsCharged,
      jobsAlreadyPaid: search.row.jobsAlreadyPaid,
      creditsRemaining,
      latencyMs: now.getTime() - search.row.createdAt.getTime(),
    });
    await tx.asyncSearch.update({
      where: { id: searchId },
      data: {
        status,
        completedAt: now,
        progressAt: now,
        metadata: metadata as Prisma.InputJsonValue,
        creditsRemaining,
      },
    });
    await this.outbox.stage(tx, Topics.EventEmitted, {
      v: 1,
      account_id: search.row.accountId,
      event: {
        id: completionEventId(searchId),
        created_at: now.toISOString(),
        watch_id: null,
        type: 'search.completed',
        data: { search: { id: searchId, status, jobs_found: search.row.jobsFound } },
      },
      webhook_url: search.row.webhookUrl,
      // a test key's search completes into the test feed only
      mode: search.row.mode,
    });
    // Counted inside the transaction: one that rolls back (a crash, a conflict) may count twice.
    this.metrics.asyncSearchFinished(status);
    // Its place in the async pool goes to the next waiting search.
    await this.startWaiting(tx);
  }

  /** Publish what the committed transaction staged. */
  kick(): void {
    this.outbox.kick();
  }

  /** Counters to add when jobs are collected (their snapshots as stored when collected: checked then, not again). */
  collectedCounters(search: LoadedSearch, jobs: readonly Job[]) {
    return {
      coverageCounts: coverageCounts(
        jobs,
        z.record(z.string(), z.number()).parse(search.row.coverageCounts),
      ) as Prisma.InputJsonValue,
    };
  }
}

/** Legs in the plan's provider order (tried, failed and contributions read in that order). */
export function orderLegs(legs: LegRow[], waves: ProviderSlug[][]): LegRow[] {
  const order = waves.flat();
  return [...legs].sort((a, b) => order.indexOf(a.provider) - order.indexOf(b.provider));
}

/** The account's balance (the gateway's table, read only): for a search billing never answered. */
export async function accountCredits(tx: Pick<Tx, '$queryRaw'>, accountId: string): Promise<number> {
  const [account] = await tx.$queryRaw<
    { credits_remaining: number }[]
  >`SELECT credits_remaining FROM accounts WHERE id = ${accountId}`;
  return account?.credits_remaining ?? 0;
}
