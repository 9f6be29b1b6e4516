// Integration spec on a throwaway PostgreSQL database: an async search's creation under the cap.
import pg from 'pg';
import { AsyncSearchCreateRequestSchema, type OrchestratorQueryRequested } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { QueryFailure } from '@jobs/nest-kafka';
import { PLAN_CAPS } from '@jobs/plans';
import type { AsyncSearchSteps } from './async-search.steps.js';
import { CreateAsyncSearchUseCase } from './create-async-search.usecase.js';

describe('CreateAsyncSearchUseCase on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let searches: CreateAsyncSearchUseCase;

  beforeAll(async () => {
    db = await throwawayDatabase('orchestrator');
    const steps = { startWaiting: async () => undefined, kick: () => undefined } as unknown as AsyncSearchSteps;
    searches = new CreateAsyncSearchUseCase(db.prisma, steps);
    await db.prisma.account.create({
      data: {
        id: 'acc_cap',
        plan: 'pro',
        creditsRemaining: 100,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });
  }, 60_000);
  afterAll(() => db?.drop());

  const create = (searchId: string): Promise<unknown> => {
    const message: OrchestratorQueryRequested.Value = {
      v: 1,
      query_id: `req_${searchId.slice(5)}`,
      account_id: 'acc_cap',
      plan: 'pro',
      mode: 'live',
      providers_enabled: ['own_index', 'provider_a'],
      query: {
        kind: 'async.create',
        search_id: searchId,
        request: AsyncSearchCreateRequestSchema.parse({ filters: { title_or: ['engineer'] }, limit: 10 }),
      },
    };
    return searches.execute(message, message.query as Extract<typeof message.query, { kind: 'async.create' }>);
  };

  it('answers a create delivered twice at once with its search, at the cap as below it', async () => {
    const cap = PLAN_CAPS.pro.unfinishedAsyncSearches;
    for (let i = 0; i < cap - 1; i++) await create(`srch_capfill${i}`);
    // both deliveries pass the early look for the search before either stored it: the account's lock holds them
    const locker = new pg.Client({ connectionString: db.url });
    await locker.connect();
    await locker.query('BEGIN');
    await locker.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', ['async-searches:acc_cap']);
    const twice = [create('srch_twice'), create('srch_twice')];
    await new Promise((resolve) => setTimeout(resolve, 300));
    await locker.query('COMMIT');
    await locker.end();
    const answers = await Promise.all(twice.map((p) => p.catch((error: unknown) => error)));
    expect(answers.map((a) => (a instanceof QueryFailure ? a.code : (a as { id: string }).id))).toEqual([
      'srch_twice',
      'srch_twice',
    ]);
    await expect(create('srch_one_too_many')).rejects.toMatchObject({ code: 'rate_limited' });
  });

  it('counts a search on hold in the cap: out of credits, an account still runs no more than its cap', async () => {
    // every one of the account's searches went on hold: none may be added until one finishes
    await db.prisma.asyncSearch.updateMany({ where: { accountId: 'acc_cap' }, data: { status: 'on_hold' } });
    await expect(create('srch_past_held')).rejects.toMatchObject({ code: 'rate_limited' });
    await db.prisma.asyncSearch.update({ where: { id: 'srch_twice' }, data: { status: 'completed' } });
    expect(await create('srch_after_one_finished')).toMatchObject({ id: 'srch_after_one_finished' });
  });
});
