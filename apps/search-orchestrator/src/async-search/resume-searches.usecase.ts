import { Injectable } from '@nestjs/common';
import { PrismaService } from '@jobs/db';
import { PLAN_CAPS } from '@jobs/plans';
import { takeAccountSearchTurn, unfinishedSearches } from './unfinished-searches.js';
import { AsyncSearchSteps, type LoadedSearch, type Tx } from './async-search.steps.js';

/**
 * A top-up (`account.credits.added`) resumes the account's on_hold searches: each goes back to
 * the async pool's queue (`queued`), and takes its turn there as a new search does, so a hundred
 * searches resumed at once never crowd out another account's; given a place, its held jobs are
 * sent to billing again and its paused providers asked for their next chunks
 * (`AsyncSearchSteps.startWaiting`). Each search in its own locked transaction;
 * a search that is no longer on_hold is left alone, so a redelivered top-up changes nothing.
 * Only while the account is under its plan's cap of searches queued or running (0041), taking
 * turns with its creates: an account that went on hold again and again, creating more each time,
 * gets its cap back at a top-up, not all of them at once; the rest stay on_hold and the sweeper
 * resumes them as places free up.
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
        if (!search || search.status !== 'on_hold') return;
        if (!(await underCap(tx, search.row.accountId, search.row.mode))) return;
        await tx.asyncSearch.update({ where: { id: searchId }, data: { status: 'queued', startedAt: null } });
        await this.steps.startWaiting(tx);
      },
      { timeout: 60_000 },
    );
    this.steps.kick();
  }
}

/** Whether the account runs fewer searches of this mode than its plan's cap, under the lock its creates take. */
async function underCap(tx: Tx, accountId: string, mode: LoadedSearch['row']['mode']): Promise<boolean> {
  await takeAccountSearchTurn(tx, accountId);
  const account = await tx.account.findUnique({ where: { id: accountId }, select: { plan: true } });
  if (!account) return false;
  return (await unfinishedSearches(tx, accountId, mode)) < PLAN_CAPS[account.plan].unfinishedAsyncSearches;
}
