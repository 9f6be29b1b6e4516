// Integration test against the real PostgreSQL: a watch's stop and the job.opened events around it.
import type { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import { examples, type EventChargeRequested } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { AccountCharges } from '../charges/account-charges.js';
import { WatchEventChargesUseCase, type JobOpenedChargeRequest } from './watch-event-charges.usecase.js';
import { createAccount } from '../charges/accounts.spec-helper.js';

let db: ThrowawayDatabase;
let watchEvents: WatchEventChargesUseCase;
let sequence = 0;
/** What the use case published straight to Kafka (its release continuations). */
const published: { topic: string; value: unknown }[] = [];
const quiet = { info: () => undefined } as unknown as Logger;

beforeAll(async () => {
  db = await throwawayDatabase('billing');
  const publisher = {
    publishMany: async () => undefined,
    publish: async (topic: { name: string }, value: unknown) => void published.push({ topic: topic.name, value }),
  } as unknown as KafkaPublisher;
  watchEvents = new WatchEventChargesUseCase(db.prisma, new AccountCharges(db.prisma, outboxStub()), publisher, quiet);
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const account = (credits: number) => createAccount(db.prisma, `acc_watch_events_${sequence++}`, credits);

/** A `job.opened` of a new job for `watchId`, its change at `at`. */
function opened(accountId: string, watchId: string, at: Date): JobOpenedChargeRequest {
  const example = examples.eventChargeRequested() as JobOpenedChargeRequest;
  const n = sequence++;
  return {
    ...example,
    account_id: accountId,
    event: {
      ...example.event,
      id: `evt_stop_${n}`,
      watch_id: watchId,
      created_at: at.toISOString(),
      data: { job: { ...example.event.data.job, id: `job_stop_${n}` } },
    },
  };
}

function stop(accountId: string, watchId: string, at?: Date): EventChargeRequested.WatchStopped {
  return {
    v: 1,
    account_id: accountId,
    watch_stopped: { watch_id: watchId, status: 'paused', ...(at ? { stopped_at: at.toISOString() } : {}) },
  };
}

const ledgerJobs = async (accountId: string) =>
  (await db.prisma.ledgerEntry.findMany({ where: { accountId }, orderBy: { id: 'asc' } })).map((l) => l.jobId);
const heldJobs = async (accountId: string) =>
  (await db.prisma.heldWatchEvent.findMany({ where: { accountId }, orderBy: { seq: 'asc' } })).map((h) => h.jobId);
const creditsOf = async (accountId: string) =>
  (await db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).creditsRemaining;

const t = (seconds: number) => new Date(Date.UTC(2026, 11, 6, 12, 0, seconds));

describe('WatchEventChargesUseCase: a stopped watch', () => {
  it('drops a job.opened made before the stop that arrives after it, charged or held; takes later ones', async () => {
    const rich = await account(5);
    await watchEvents.dropStopped(stop(rich, 'wat_rich', t(10)));
    const stale = opened(rich, 'wat_rich', t(9));
    await watchEvents.charge(stale);
    await watchEvents.charge(stale); // a redelivery drops it again
    const afterResume = opened(rich, 'wat_rich', t(11));
    await watchEvents.charge(afterResume);
    expect(await ledgerJobs(rich)).toEqual([afterResume.event.data.job.id]);
    expect(await creditsOf(rich)).toBe(4);

    const broke = await account(0);
    await watchEvents.dropStopped(stop(broke, 'wat_broke', t(10)));
    await watchEvents.charge(opened(broke, 'wat_broke', t(9)));
    const later = opened(broke, 'wat_broke', t(12));
    await watchEvents.charge(later);
    expect(await heldJobs(broke)).toEqual([later.event.data.job.id]);
    await db.prisma.account.update({ where: { id: broke }, data: { creditsRemaining: 3 } });
    expect(await watchEvents.releaseAll(broke)).toBe(1);
    expect(await ledgerJobs(broke)).toEqual([later.event.data.job.id]);
  });

  it("drops the events held before the stop, and only that watch's", async () => {
    const broke = await account(0);
    const [ofStopped, ofOther] = [opened(broke, 'wat_held_a', t(1)), opened(broke, 'wat_held_b', t(2))];
    await watchEvents.charge(ofStopped);
    await watchEvents.charge(ofOther);
    await watchEvents.dropStopped(stop(broke, 'wat_held_a', t(3)));
    expect(await heldJobs(broke)).toEqual([ofOther.event.data.job.id]);
  });

  it('keeps the latest stop: a redelivered earlier one never lets older events through', async () => {
    const rich = await account(5);
    await watchEvents.dropStopped(stop(rich, 'wat_twice', t(20)));
    await watchEvents.dropStopped(stop(rich, 'wat_twice', t(10)));
    await watchEvents.charge(opened(rich, 'wat_twice', t(15)));
    expect(await ledgerJobs(rich)).toEqual([]);
    const { stoppedAt } = await db.prisma.watchStop.findUniqueOrThrow({
      where: { accountId_watchId: { accountId: rich, watchId: 'wat_twice' } },
    });
    expect(stoppedAt).toEqual(t(20));
  });

  it("a stop sent with another account's watch id never drops the owner's events", async () => {
    const owner = await account(5);
    const stranger = await account(5);
    await watchEvents.dropStopped(stop(stranger, 'wat_owned', t(20)));
    const event = opened(owner, 'wat_owned', t(15));
    await watchEvents.charge(event);
    expect(await ledgerJobs(owner)).toEqual([event.event.data.job.id]);
  });

  it('a stop of an earlier version (no stopped_at) drops held events only', async () => {
    const rich = await account(5);
    await watchEvents.dropStopped(stop(rich, 'wat_unversioned'));
    const event = opened(rich, 'wat_unversioned', t(0));
    await watchEvents.charge(event);
    expect(await ledgerJobs(rich)).toEqual([event.event.data.job.id]);
  });

  it('forgets stops older than a week when another watch stops', async () => {
    const rich = await account(5);
    await watchEvents.dropStopped(stop(rich, 'wat_long_ago', new Date(Date.UTC(2026, 10, 1))));
    await watchEvents.dropStopped(stop(rich, 'wat_recent', new Date(Date.UTC(2026, 10, 7))));
    expect(await db.prisma.watchStop.count({ where: { watchId: 'wat_long_ago' } })).toBe(1);
    await watchEvents.dropStopped(stop(rich, 'wat_now', new Date(Date.UTC(2026, 10, 9))));
    const kept = await db.prisma.watchStop.findMany({ where: { accountId: rich }, orderBy: { watchId: 'asc' } });
    expect(kept.map((s) => s.watchId)).toEqual(['wat_now', 'wat_recent']);
  });

  it('drops the held job.opened a change ended, only those made no later than it (a redelivery)', async () => {
    const broke = await account(0);
    const first = opened(broke, 'wat_ended', t(10));
    await watchEvents.charge(first);
    const jobId = first.event.data.job.id;
    const ended = (at: Date): EventChargeRequested.HeldOpeningEnded => ({
      v: 1,
      account_id: broke,
      held_opening_ended: { watch_id: 'wat_ended', job_id: jobId, changed_at: at.toISOString(), because: 'left_scope' },
    });
    await watchEvents.dropEnded(ended(t(20)));
    expect(await heldJobs(broke)).toEqual([]);
    // the job came back into the watch: its new opening is held; the earlier change redelivered leaves it
    const back = opened(broke, 'wat_ended', t(30));
    const again = { ...back, event: { ...back.event, data: { job: { ...back.event.data.job, id: jobId } } } };
    await watchEvents.charge(again);
    await watchEvents.dropEnded(ended(t(20)));
    expect(await heldJobs(broke)).toEqual([jobId]);
    // a redelivered stop from before it leaves it too
    await watchEvents.dropStopped(stop(broke, 'wat_ended', t(25)));
    expect(await heldJobs(broke)).toEqual([jobId]);
  });
});

describe('WatchEventChargesUseCase: releasing held events', () => {
  it('releases over several bounded passes, each asking for the next, until none is held', async () => {
    const broke = await account(0);
    const held = [1, 2, 3, 4, 5].map((s) => opened(broke, 'wat_backlog', t(s)));
    for (const event of held) await watchEvents.charge(event);
    expect(await heldJobs(broke)).toHaveLength(5);
    await db.prisma.account.update({ where: { id: broke }, data: { creditsRemaining: 10 } });
    published.length = 0;

    // a pass of 2: two released, and a continuation behind the account's queued messages
    expect(await watchEvents.releaseAll(broke, 2)).toBe(2);
    expect(published).toEqual([
      { topic: 'event.charge.requested', value: { v: 1, account_id: broke, release_held: { because: 'more_held' } } },
    ]);
    expect(await watchEvents.releaseAll(broke, 2)).toBe(2);
    expect(published).toHaveLength(2);
    // the last one, then nothing left: no further continuation
    expect(await watchEvents.releaseAll(broke, 2)).toBe(1);
    expect(published).toHaveLength(2);
    expect(await heldJobs(broke)).toEqual([]);
    expect((await ledgerJobs(broke)).sort()).toEqual(held.map((event) => event.event.data.job.id).sort());
  });

  it('asks for no further pass when credits run out before the bound', async () => {
    const broke = await account(0);
    for (const s of [1, 2, 3]) await watchEvents.charge(opened(broke, 'wat_short', t(s)));
    await db.prisma.account.update({ where: { id: broke }, data: { creditsRemaining: 1 } });
    published.length = 0;
    expect(await watchEvents.releaseAll(broke, 2)).toBe(1);
    expect(published).toEqual([]);
    expect(await heldJobs(broke)).toHaveLength(2);
  });
});
