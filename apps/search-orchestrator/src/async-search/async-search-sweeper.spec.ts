// Integration spec on a throwaway PostgreSQL database: which searches a sweep takes up.
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { DrainRegistry } from '@jobs/service-kit';
import type { AsyncPipelineProbe } from './async-pipeline.probe.js';
import { AsyncSearchSweeper } from './async-search-sweeper.js';
import type { AsyncSearchSteps } from './async-search.steps.js';
import type { ResumeSearchesUseCase } from './resume-searches.usecase.js';

describe('AsyncSearchSweeper on PostgreSQL', () => {
  let db: ThrowawayDatabase;

  beforeAll(async () => {
    db = await throwawayDatabase('orchestrator');
  }, 60_000);
  afterAll(() => db?.drop());

  const account = (id: string, credits: number) =>
    db.prisma.account.create({
      data: {
        id,
        plan: 'pro',
        creditsRemaining: credits,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });
  const onHold = (id: string, accountId: string, progressAt: Date) =>
    db.prisma.asyncSearch.create({
      data: {
        id,
        accountId,
        mode: 'live',
        providersEnabled: ['own_index'],
        request: {},
        status: 'on_hold',
        waves: [['own_index']],
        requestId: `req_${id}`,
        asOf: progressAt,
        progressAt,
        startedAt: progressAt,
      },
    });

  it('resumes the searches on hold of accounts with credits again, oldest first, past any number without', async () => {
    await account('acc_broke', 0);
    await account('acc_topped_up', 50);
    const longAgo = new Date(Date.now() - 3_600_000);
    for (let i = 0; i < 30; i++) await onHold(`srch_broke${i}`, 'acc_broke', new Date(longAgo.getTime() - i * 1_000));
    await onHold('srch_topped_up_newer', 'acc_topped_up', longAgo);
    await onHold('srch_topped_up_older', 'acc_topped_up', new Date(longAgo.getTime() - 60_000));

    const resumed: string[] = [];
    const sweeper = new AsyncSearchSweeper(
      db.prisma,
      { startWaiting: async () => undefined, kick: () => undefined } as unknown as AsyncSearchSteps,
      {} as AsyncPipelineProbe,
      { resume: async (id: string) => void resumed.push(id) } as unknown as ResumeSearchesUseCase,
      { warn: () => undefined, info: () => undefined } as never,
      { register: () => undefined } as unknown as DrainRegistry,
    );
    expect(await sweeper.sweep()).toBe(2);
    expect(resumed).toEqual(['srch_topped_up_older', 'srch_topped_up_newer']);
  });
});
