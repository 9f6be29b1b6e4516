// Integration spec on a throwaway PostgreSQL database: the async pool's places, for new searches
// and for searches resumed after a hold.
import { AsyncSearchCreateRequestSchema, Topics } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { AsyncSearchSteps } from './async-search.steps.js';
import { ResumeSearchesUseCase } from './resume-searches.usecase.js';

describe('the async pool on PostgreSQL', () => {
  let db: ThrowawayDatabase;
  let steps: AsyncSearchSteps;

  beforeAll(async () => {
    db = await throwawayDatabase('orchestrator');
    // two places: one taken by a search collecting already
    steps = new AsyncSearchSteps(outboxStub(), { maxRunning: 2 });
  }, 60_000);
  afterAll(() => db?.drop());

  const request = AsyncSearchCreateRequestSchema.parse({ filters: { title_or: ['engineer'] }, limit: 100 });
  const account = (id: string) =>
    db.prisma.account.create({
      data: {
        id,
        plan: 'pro',
        creditsRemaining: 100,
        creditsResetAt: new Date(),
        rateLimitLimit: 10,
        rateLimitWindowSeconds: 60,
      },
    });
  const search = (id: string, accountId: string, status: 'queued' | 'running' | 'on_hold', createdAt: Date) =>
    db.prisma.asyncSearch.create({
      data: {
        id,
        accountId,
        mode: 'live',
        providersEnabled: ['own_index'],
        request,
        status,
        waves: [['own_index']],
        requestId: `req_${id}`,
        asOf: createdAt,
        createdAt,
        progressAt: createdAt,
        startedAt: status === 'queued' ? null : createdAt,
        chargeSeq: status === 'on_hold' ? 1 : 0,
      },
    });
  /** On hold: its provider paused after a chunk, one job collected and two held for credits. */
  const onHold = async (id: string, accountId: string, createdAt: Date) => {
    await search(id, accountId, 'on_hold', createdAt);
    await db.prisma.asyncSearchLeg.create({
      data: {
        searchId: id,
        provider: 'own_index',
        wave: 0,
        state: 'paused',
        chunk: 1,
        position: { kind: 'store', after: null },
      },
    });
    await db.prisma.asyncSearchResult.createMany({
      data: ['collected', 'held', 'held'].map((state, i) => ({
        searchId: id,
        jobId: `job_${id}_${i}`,
        seq: i + 1,
        provider: 'own_index' as const,
        state,
        chargeBatch: null,
        job: {},
      })),
    });
  };
  /** The messages staged for the searches whose id starts so (by their `search_id`, whatever their key). */
  const staged = async (topic: { name: string }, searchId: string) =>
    (await db.prisma.outboxMessage.findMany({ where: { topic: topic.name }, orderBy: { id: 'asc' } }))
      .map((m) => JSON.parse(m.value) as Record<string, unknown>)
      .filter((value) => String(value['search_id']).startsWith(searchId));

  it("puts searches resumed by a top-up back in the queue, behind another account's waiting search", async () => {
    await account('acc_resumes');
    await account('acc_waits');
    const t = new Date(Date.now() - 60_000);
    await search('srch_collecting', 'acc_resumes', 'running', t);
    await onHold('srch_held_a', 'acc_resumes', new Date(t.getTime() + 1_000));
    await onHold('srch_held_b', 'acc_resumes', new Date(t.getTime() + 2_000));
    await search('srch_waiting', 'acc_waits', 'queued', new Date(t.getTime() + 3_000));

    await new ResumeSearchesUseCase(db.prisma, steps).forAccount('acc_resumes');
    const status = async () =>
      Object.fromEntries(
        (await db.prisma.asyncSearch.findMany({ orderBy: { id: 'asc' } })).map((s) => [
          s.id,
          [s.status, s.resumeWantedAt !== null],
        ]),
      );
    // the one free place goes to the account with none collecting: the resumed wait their turn, on hold
    expect(await status()).toEqual({
      srch_collecting: ['running', false],
      srch_held_a: ['on_hold', true],
      srch_held_b: ['on_hold', true],
      srch_waiting: ['queued', false],
    });
    expect((await db.prisma.asyncSearch.findUniqueOrThrow({ where: { id: 'srch_waiting' } })).startedAt).not.toBeNull();
    expect(await staged(Topics.AsyncChunkRequested, 'srch_waiting')).toHaveLength(1);
    expect(await staged(Topics.AsyncChunkChargeRequested, 'srch_held')).toEqual([]);

    // a place frees: the oldest resumed search collects again from where it stood
    await db.prisma.asyncSearch.update({ where: { id: 'srch_collecting' }, data: { status: 'completed' } });
    await db.prisma.$transaction((tx) => steps.startWaiting(tx));
    expect((await status())['srch_held_a']).toEqual(['running', false]);
    expect((await status())['srch_held_b']).toEqual(['on_hold', true]);
    expect(await staged(Topics.AsyncChunkChargeRequested, 'srch_held_a')).toEqual([
      expect.objectContaining({ batch: 2, job_ids: ['job_srch_held_a_1', 'job_srch_held_a_2'] }),
    ]);
    expect(await staged(Topics.AsyncChunkRequested, 'srch_held_a')).toEqual([
      expect.objectContaining({ provider: 'own_index', chunk: 1, from: { kind: 'store', after: null } }),
    ]);
  });
});
