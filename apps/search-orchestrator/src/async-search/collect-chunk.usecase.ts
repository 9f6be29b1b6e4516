import { Injectable } from '@nestjs/common';
import type { AsyncChunkDeduplicated, Job } from '@jobs/contracts';
import { PrismaService, type Prisma } from '@jobs/db';
import {
  afterFailedChunk,
  chunkRetryDelayMs,
  isFinal,
  legAfterChunk,
  matchingJobs,
  newCandidates,
} from './collection.js';
import { AsyncSearchSteps, matchContext, positionOf, type LoadedSearch, type Tx } from './async-search.steps.js';

/**
 * One de-duplicated chunk reaches its search: in one transaction under the search's lock, its
 * matching jobs the search does not hold yet (up to the room left under `limit`) become result
 * rows and are sent to billing as one charge batch (rule 4: charged as collected), the leg moves
 * on (next chunk asked, paused, exhausted) and the search takes its next step. A failed chunk is
 * asked again, then its provider is given up (the search will be partial). An answer for a chunk
 * or try the leg is not waiting for (a redelivery, a re-driven duplicate) changes nothing.
 */
@Injectable()
export class CollectChunkUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
  ) {}

  async execute(message: AsyncChunkDeduplicated.Value): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        const search = await this.steps.lock(tx, message.search_id);
        if (!search || isFinal(search.status)) return;
        const leg = await tx.asyncSearchLeg.findUnique({
          where: { searchId_provider: { searchId: message.search_id, provider: message.provider } },
        });
        if (!leg || leg.state !== 'fetching' || leg.chunk !== message.chunk || leg.attempt !== message.attempt) return;
        const where = { searchId_provider: { searchId: leg.searchId, provider: leg.provider } };
        if (message.outcome !== 'ok') {
          if (afterFailedChunk(message.attempt) === 'retry') {
            // the sweeper asks it once it is due (AsyncSearchSweeper.askDueRetries)
            const retryAt = new Date(Date.now() + chunkRetryDelayMs(leg.provider));
            await tx.asyncSearchLeg.update({ where, data: { attempt: message.attempt + 1, retryAt } });
          } else {
            await tx.asyncSearchLeg.update({
              where,
              data: { state: 'failed', failure: message.outcome, latencyMs: { increment: message.latency_ms } },
            });
          }
        } else {
          await this.collect(tx, search, message, where);
        }
        if (search.status === 'queued') {
          await tx.asyncSearch.update({ where: { id: search.row.id }, data: { status: 'running' } });
          search.status = 'running';
        }
        await this.steps.advance(tx, search);
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
  }

  private async collect(
    tx: Tx,
    search: LoadedSearch,
    message: AsyncChunkDeduplicated.Value,
    where: Prisma.AsyncSearchLegWhereUniqueInput,
  ): Promise<void> {
    const searchId = search.row.id;
    const matching = matchingJobs(message.jobs, matchContext(search));
    const known = new Set(
      (
        await tx.asyncSearchResult.findMany({
          where: { searchId, jobId: { in: matching.map((j) => j.id) } },
          select: { jobId: true },
        })
      ).map((r) => r.jobId),
    );
    const { pending, held } = await this.steps.inFlight(tx, searchId);
    const room = search.request.limit - search.row.jobsFound - pending - held;
    // once billing has stopped the search at its max_credits, a chunk still on its way collects nothing
    const candidates = search.row.capReached ? [] : newCandidates(matching, known, room);
    const onHold = search.status === 'on_hold';
    if (candidates.length > 0) await this.addResults(tx, search, message.provider, candidates, onHold);
    const done = search.row.capReached || search.row.jobsFound >= search.request.limit;
    const state = legAfterChunk({ next: message.next, onHold, roomLeft: room - candidates.length, done });
    const next = message.next ?? positionOf(await tx.asyncSearchLeg.findUniqueOrThrow({ where }));
    await tx.asyncSearchLeg.update({
      where,
      data: {
        state,
        chunk: message.chunk + 1,
        attempt: 0,
        position: next as Prisma.InputJsonValue,
        recordsIn: { increment: message.records_in },
        duplicatesMerged: { increment: message.duplicates_merged },
        matched: { increment: matching.length },
        latencyMs: { increment: message.latency_ms },
      },
    });
    if (state === 'fetching')
      await this.steps.askChunk(tx, search, {
        provider: message.provider,
        chunk: message.chunk + 1,
        attempt: 0,
        from: next,
      });
  }

  /** New result rows, numbered in collection order; sent to billing now, or held while on_hold. */
  private async addResults(
    tx: Tx,
    search: LoadedSearch,
    provider: AsyncChunkDeduplicated.Value['provider'],
    jobs: Job[],
    onHold: boolean,
  ): Promise<void> {
    const batch = onHold ? null : search.row.chargeSeq + 1;
    // One statement over the chunk's jobs as one JSON array: Prisma's createMany binds seven
    // parameters per row, which costs the orchestrator more than the insert itself.
    await tx.$executeRaw`
      INSERT INTO async_search_results (search_id, job_id, seq, provider, state, charge_batch, job)
      SELECT ${search.row.id}, j.job->>'id', ${search.row.resultSeq}::int + j.n::int, ${provider}::provider,
        ${onHold ? 'held' : 'pending'}, ${batch}::int, j.job
      FROM jsonb_array_elements(${JSON.stringify(jobs)}::jsonb) WITH ORDINALITY AS j(job, n)`;
    const updated = await tx.asyncSearch.update({
      where: { id: search.row.id },
      data: { resultSeq: { increment: jobs.length }, ...(batch === null ? {} : { chargeSeq: batch }) },
    });
    search.row = updated;
    if (batch !== null)
      await this.steps.askCharge(
        tx,
        search,
        batch,
        jobs.map((j) => j.id),
      );
  }
}
