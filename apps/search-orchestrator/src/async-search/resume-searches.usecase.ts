import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { AsyncSearchSteps } from './async-search.steps.js';

/**
 * A top-up (`account.credits.added`) resumes the account's on_hold searches: each asks for a place
 * in the async pool (`resume_wanted_at`) and waits its turn there as a new search does, still on
 * hold (an answer still on its way is held as on any search on hold), so a hundred searches resumed
 * at once never crowd out another account's; given a place, it runs again, its held jobs are sent
 * to billing again and its paused providers asked for their next chunks
 * (`AsyncSearchSteps.startWaiting`). Each search in its own locked transaction; a search no longer
 * on hold, or already waiting to resume, is left alone, so a redelivered top-up changes nothing. A
 * search on hold counts toward its account's cap of unfinished searches (0041), so resuming one
 * never passes it.
 */
@Injectable()
export class ResumeSearchesUseCase {
  constructor(
    private readonly prisma: PrismaService,
    private readonly steps: AsyncSearchSteps,
  ) {}

  async forAccount(accountId: string): Promise<void> {
    const held = await this.prisma.asyncSearch.findMany({
      where: { accountId, status: 'on_hold' },
      select: { id: true },
      orderBy: { createdAt: 'asc' },
    });
    for (const { id } of held) await this.resume(id);
  }

  async resume(searchId: string): Promise<void> {
    await this.prisma.$transaction(
      async (tx) => {
        const search = await this.steps.lock(tx, searchId);
        if (!search || search.status !== 'on_hold' || search.row.resumeWantedAt !== null) return;
        await tx.asyncSearch.update({ where: { id: searchId }, data: { resumeWantedAt: new Date() } });
        await this.steps.startWaiting(tx);
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
  }
}
