import { Injectable } from '@nestjs/common';
import type { AsyncChunkCharged, Job } from '@jobs/contracts';
import { PrismaService } from '@jobs/db';
import { isFinal } from './collection.js';
import { AsyncSearchSteps } from './async-search.steps.js';

/**
 * Billing answered one charge batch: under the search's lock, the collected prefix becomes part
 * of the results (jobs_found, credits and coverage counted), and the rest is held for credits
 * (`stopped: credits`: the search goes on_hold and collection stops) or dropped (`max_credits`:
 * the search has reached its cap and ends). A batch answered before (a redelivery) has no
 * pending rows left and changes nothing.
 */
@Injectable()
export class ApplyChargeUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
  ) {}

  async execute(message: AsyncChunkCharged.Value): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        const search = await this.steps.lock(tx, message.search_id);
        if (!search || isFinal(search.status)) return;
        const searchId = search.row.id;
        const rows = await tx.asyncSearchResult.findMany({
          where: { searchId, state: 'pending', chargeBatch: message.batch },
          select: { jobId: true, job: true },
        });
        if (rows.length === 0) return;
        const collected = new Set(message.collected.map((c) => c.job_id));
        const collectedRows = rows.filter((row) => collected.has(row.jobId));
        const collectedIds = new Set(collectedRows.map((row) => row.jobId));
        const rest = rows.filter((row) => !collected.has(row.jobId)).map((row) => row.jobId);
        await tx.asyncSearchResult.updateMany({
          where: { searchId, jobId: { in: collectedRows.map((r) => r.jobId) } },
          data: { state: 'collected' },
        });
        if (rest.length > 0 && message.stopped === 'credits') {
          await tx.asyncSearchResult.updateMany({
            where: { searchId, jobId: { in: rest } },
            data: { state: 'held', chargeBatch: null },
          });
        } else if (rest.length > 0) {
          await tx.asyncSearchResult.deleteMany({ where: { searchId, jobId: { in: rest } } });
        }
        const onHold = message.stopped === 'credits' && rest.length > 0;
        // the cap is reached when billing stopped a job at it, and also when this batch's last charge
        // took its last credit: collecting on would ask the partners for jobs none may be charged for
        const cap = search.request.waterfall.max_credits ?? null;
        const capReached =
          message.stopped === 'max_credits' ||
          (cap !== null && search.row.creditsCharged + message.credits_charged >= cap);
        search.row = await tx.asyncSearch.update({
          where: { id: searchId },
          data: {
            jobsFound: { increment: collectedRows.length },
            creditsCharged: { increment: message.credits_charged },
            // of the rows this answer collected: an answer naming a job no longer pending counts nothing
            jobsAlreadyPaid: {
              increment: message.collected.filter((c) => c.reason === 'already_paid' && collectedIds.has(c.job_id))
                .length,
            },
            creditsRemaining: message.credits_remaining,
            ...(capReached ? { capReached: true } : {}),
            ...(onHold ? { status: 'on_hold' } : {}),
            // snapshots checked against the Job contract when collected: counted as stored
            ...this.steps.collectedCounters(
              search,
              collectedRows.map((r) => r.job as unknown as Job),
            ),
          },
        });
        if (onHold) search.status = 'on_hold';
        await this.steps.advance(tx, search);
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
  }
}
