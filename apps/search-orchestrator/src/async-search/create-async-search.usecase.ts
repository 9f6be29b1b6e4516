import { Injectable } from '@nestjs/common';
import type { AsyncSearch, OrchestratorQueryRequested } from '@jobs/contracts';
import { askerGaveUpByNow, isUniqueViolation, PrismaService, type Prisma } from '@jobs/db';
import { PLAN_CAPS, planRequiredRefusal } from '@jobs/plans';
import { matchingSandboxJobs, plannedProviders } from '@jobs/sandbox';
import { planWaterfall, ProviderNotOnPlanError } from '@jobs/waterfall';
import { QueryFailure } from '@jobs/nest-kafka';
import { coverageCounts } from './collection.js';
import { acceptedView } from './async-search.view.js';
import { AsyncSearchSteps, loadSearch, type Tx } from './async-search.steps.js';
import { takeAccountSearchTurn, unfinishedSearches } from './unfinished-searches.js';

type Message = OrchestratorQueryRequested.Value;
type CreateQuery = Extract<Message['query'], { kind: 'async.create' }>;

/**
 * POST /searches: stores the search (queued) and, in the same transaction, starts it (asks the
 * first wave's providers for their first chunks) if the async pool has a place for it, else it
 * waits for one (AsyncSearchPool); the answer is the search as accepted. The id comes
 * from the gateway, so a retry (same Idempotency-Key) finds the stored search and never starts a
 * second one. A provider off the plan is refused (plan_required) before anything is stored.
 *
 * Live searches are capped per account (assertUnderCap).
 *
 * Test keys: the search is stored already completed with the sandbox's jobs matching its
 * filters (up to `limit`), never charged, and `search.completed` is staged with it.
 */
@Injectable()
export class CreateAsyncSearchUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
  ) {}

  async execute(message: Message, query: CreateQuery): Promise<AsyncSearch> {
    const existing = await this.prisma.asyncSearch.findUnique({ where: { id: query.search_id } });
    if (existing) return this.sameAccount(existing, message);
    let waves;
    try {
      waves = planWaterfall(query.request, message.providers_enabled).waves;
    } catch (error) {
      if (!(error instanceof ProviderNotOnPlanError)) throw error;
      const { message: refusal, required_plan } = planRequiredRefusal(error.providers);
      throw new QueryFailure('plan_required', refusal, { required_plan });
    }
    try {
      const row = await this.prisma.$transaction(async (tx) => {
        if (message.mode === 'live') await this.assertUnderCap(tx, message, query.search_id);
        const created = await tx.asyncSearch.create({
          data: {
            id: query.search_id,
            accountId: message.account_id,
            mode: message.mode,
            providersEnabled: message.providers_enabled,
            request: query.request as Prisma.InputJsonValue,
            webhookUrl: query.request.webhook_url ?? null,
            status: 'queued',
            waves: waves as Prisma.InputJsonValue,
            requestId: message.query_id,
            asOf: new Date(),
            // The sandbox answers at once: a test search never waits for the async pool.
            startedAt: message.mode === 'test' ? new Date() : null,
          },
        });
        if (message.mode === 'test') await this.completeFromSandbox(tx, created);
        // It starts now if the async pool has a place (or another account's waiting search does).
        else await this.steps.startWaiting(tx);
        return created;
      });
      this.steps.kick();
      return acceptedView(row);
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      // the same search created concurrently (a retry racing the first attempt)
      return this.sameAccount(
        await this.prisma.asyncSearch.findUniqueOrThrow({ where: { id: query.search_id } }),
        message,
      );
    }
  }

  /**
   * An account's unfinished searches are capped by plan (PLAN_CAPS): creates of one account take
   * turns (an advisory lock), so concurrent ones never pass the cap together. Beyond it the
   * answer is 429: a place frees up when one of its searches finishes.
   */
  private async assertUnderCap(tx: Tx, message: Message, searchId: string): Promise<void> {
    await takeAccountSearchTurn(tx, message.account_id);
    // the lock may be held by the account's other creates and resumes: one that waited past the
    // gateway's answer_by makes nothing (the gateway answered internal_error; the caller retries)
    if (await askerGaveUpByNow(tx, message.answer_by))
      throw new QueryFailure('internal_error', 'The request expired before it was taken; nothing was made.');
    const cap = PLAN_CAPS[message.plan].unfinishedAsyncSearches;
    // not this search itself: a redelivered create that waited for the lock behind its first run
    // finds the search made, and answers it (the insert's unique violation) instead of 429
    const unfinished = await unfinishedSearches(tx, message.account_id, 'live', searchId);
    if (unfinished >= cap)
      throw new QueryFailure(
        'rate_limited',
        `The ${message.plan} plan keeps up to ${cap} async searches unfinished at once, and ${unfinished} of this ` +
          "account's are queued, running or on hold: send this one when one of them finishes.",
      );
  }

  private sameAccount(row: Prisma.AsyncSearchGetPayload<object>, message: Message): AsyncSearch {
    if (row.accountId !== message.account_id || row.mode !== message.mode)
      throw new QueryFailure('not_found', `No async search ${row.id}.`);
    return acceptedView(row);
  }

  private async completeFromSandbox(tx: Tx, row: Prisma.AsyncSearchGetPayload<object>): Promise<void> {
    const search = loadSearch(row);
    const request = {
      filters: search.request.filters,
      waterfall: search.request.waterfall,
      limit: 100,
      dry_run: false,
    };
    const jobs = matchingSandboxJobs(request).slice(0, search.request.limit);
    await tx.asyncSearchResult.createMany({
      data: jobs.map((job, i) => ({
        searchId: row.id,
        jobId: job.id,
        seq: i + 1,
        provider: job.sources[0]?.provider ?? 'own_index',
        state: 'collected',
        job: job as unknown as Prisma.InputJsonValue,
      })),
    });
    const planned = plannedProviders(request);
    search.row = await tx.asyncSearch.update({
      where: { id: row.id },
      data: {
        status: 'running',
        jobsFound: jobs.length,
        resultSeq: jobs.length,
        coverageCounts: coverageCounts(jobs) as Prisma.InputJsonValue,
      },
    });
    await tx.asyncSearchLeg.createMany({
      data: planned.map((provider) => ({
        searchId: row.id,
        provider,
        wave: 0,
        state: 'exhausted',
        position: { kind: 'pages', page: null },
        matched: jobs.some((j) => j.sources.some((s) => s.provider === provider)) ? 1 : 0,
      })),
    });
    search.status = 'running';
    const legs = await tx.asyncSearchLeg.findMany({ where: { searchId: row.id } });
    await this.steps.finish(tx, search, 'completed', legs);
  }
}
