// Integration test against the real PostgreSQL: the one transaction every charge goes through.
import { jest } from '@jest/globals';
import pg from 'pg';
import { AsyncChunkCharged, examples, Topics, type AsyncChunkChargeRequested } from '@jobs/contracts';
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import { outboxStub } from '@jobs/outbox/testing';
import { AccountCharges, ChargeExpired, type ChargeRequest, type StagedAnswer } from './account-charges.js';
import { ChargeAsyncChunkUseCase } from '../async-chunks/charge-async-chunk.usecase.js';
import { ChargeMetrics } from './charge-metrics.js';
import { createAccount } from './accounts.spec-helper.js';

let db: ThrowawayDatabase;
let charges: AccountCharges;
let sequence = 0;

beforeAll(async () => {
  db = await throwawayDatabase('billing');
  charges = new AccountCharges(db.prisma, outboxStub());
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

const account = (credits: number) => createAccount(db.prisma, `acct_charges_${sequence++}`, credits);

/**
 * Charges `jobIds` as GET /jobs would, answering on query.responded; `unlocked`: as a sync search's page is charged.
 */
function charge(
  accountId: string,
  jobIds: string[],
  unlocked = false,
  queryId = `req_charges_${sequence++}`,
  answerBy?: Date,
): Promise<void> {
  const request: ChargeRequest = {
    ...(answerBy ? { answerBy: answerBy.toISOString() } : {}),
    chargeKey: `charge:${queryId}`,
    kind: 'job',
    accountId,
    requestId: queryId,
    operation: 'GET /v1/jobs/x',
    jobIds,
    maxCredits: null,
    mode: 'live',
  };
  const answer: StagedAnswer = async (plan, creditsRemaining, stage) => {
    await stage(Topics.QueryResponded, {
      v: 1,
      query_id: queryId,
      outcome: 'ok',
      result: {
        kind: 'job.charge',
        reason: plan.kind === 'ok' ? (plan.lines[0]?.reason ?? null) : null,
        credits_charged: plan.kind === 'ok' ? plan.creditsCharged : 0,
        credits_remaining: creditsRemaining,
      },
    });
  };
  return unlocked
    ? charges.chargeWithoutLock(request, answer)
    : charges.charge(request, (_tx, plan, creditsRemaining, stage) => answer(plan, creditsRemaining, stage));
}

/** Another charge of the account, holding the account's lock with job_x paid, not yet committed. */
async function uncommittedCharge(accountId: string): Promise<pg.Client> {
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  await other.query("INSERT INTO paid_jobs (account_id, job_id) VALUES ($1, 'job_x')", [accountId]);
  await other.query('UPDATE accounts SET credits_remaining = credits_remaining - 1, updated_at = now() WHERE id = $1', [
    accountId,
  ]);
  return other;
}

/** Until `count` statements wait for a lock (the charges under test, for the account's row). */
async function untilWaitingForLock(other: pg.Client, count = 1): Promise<number> {
  const waiting = async () =>
    (
      await other.query(
        'SELECT count(*)::int AS n FROM pg_stat_activity WHERE ' +
          "datname = current_database() AND wait_event_type = 'Lock'",
      )
    ).rows[0].n as number;
  for (let i = 0; i < 200 && (await waiting()) < count; i++) await new Promise((r) => setTimeout(r, 25));
  return waiting();
}

const ledgerOf = async (accountId: string) =>
  (
    await db.prisma.ledgerEntry.findMany({
      where: { accountId },
      orderBy: { createdAt: 'asc' },
      select: { jobId: true, reason: true, credits: true },
    })
  ).map((e) => `${e.jobId}:${e.reason}:${e.credits}`);
const creditsOf = async (accountId: string) =>
  (await db.prisma.account.findUniqueOrThrow({ where: { id: accountId } })).creditsRemaining;

/**
 * Charges job_x and job_y while another charge holds the account's lock with job_x paid, and
 * commits that one once this one waits for the lock: job_x is not charged again.
 */
async function chargeBesideAnother(unlocked: boolean): Promise<void> {
  const acct = await account(10);
  const other = await uncommittedCharge(acct);
  const charging = charge(acct, ['job_x', 'job_y'], unlocked);
  expect(await untilWaitingForLock(other)).toBe(1);
  await other.query('COMMIT');
  await other.end();
  await charging;
  expect(await ledgerOf(acct)).toEqual(['job_x:already_paid:0', 'job_y:charged:1']);
  expect(await creditsOf(acct)).toBe(8);
}

/** A lock on the account's row, as another charge holds it, that changes nothing. */
async function heldLock(accountId: string): Promise<pg.Client> {
  const other = new pg.Client({ connectionString: db.url });
  await other.connect();
  await other.query('BEGIN');
  await other.query('SELECT 1 FROM accounts WHERE id = $1 FOR UPDATE', [accountId]);
  return other;
}

/**
 * A charge whose asker stops waiting while it waits for the account's lock: once the lock is
 * released, past `answerBy`, it writes nothing (no mark, no line, no answer) and expires.
 */
async function chargeExpiringBehindLock(unlocked: boolean): Promise<void> {
  const acct = await account(10);
  const queryId = `req_expiring_${sequence++}`;
  const other = await heldLock(acct);
  const charging = charge(acct, ['job_x'], unlocked, queryId, new Date(Date.now() + 300)).catch((error) => error);
  expect(await untilWaitingForLock(other)).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 400));
  await other.query('ROLLBACK');
  await other.end();
  const outcome = await charging;
  expect(outcome).toBeInstanceOf(ChargeExpired);
  expect((outcome as ChargeExpired).creditsRemaining).toBe(10);
  expect(await ledgerOf(acct)).toEqual([]);
  expect(await creditsOf(acct)).toBe(10);
  expect(await db.prisma.processedMessage.count({ where: { messageId: `charge:${queryId}` } })).toBe(0);
  expect(await db.prisma.outboxMessage.count({ where: { value: { contains: `"query_id":"${queryId}"` } } })).toBe(0);
}

/** Eight overlapping requests of one account at once: each job charged exactly once, whichever request takes it. */
async function overlappingCharges(prefix: string, unlocked: (request: number) => boolean): Promise<void> {
  const acct = await account(100);
  const jobs = Array.from({ length: 12 }, (_, i) => `${prefix}_${i}`);
  await Promise.all(Array.from({ length: 8 }, (_, i) => charge(acct, jobs.slice(i, i + 5), unlocked(i))));
  const ledger = await ledgerOf(acct);
  for (const job of jobs) expect(ledger.filter((line) => line.startsWith(`${job}:charged`))).toHaveLength(1);
  expect(await creditsOf(acct)).toBe(100 - jobs.length);
}

describe('AccountCharges', () => {
  it(
    'charges each job once per account, writes the ledger and ' +
      'stages the answer, and reads paid jobs in its first ' +
      'statement',
    async () => {
      const reread = jest.spyOn(ChargeMetrics.prototype, 'paidReadAgain');
      const acct = await account(10);
      await charge(acct, ['job_a', 'job_b']);
      await charge(acct, ['job_b', 'job_c']);
      expect(await ledgerOf(acct)).toEqual([
        'job_a:charged:1',
        'job_b:charged:1',
        'job_b:already_paid:0',
        'job_c:charged:1',
      ]);
      expect(await creditsOf(acct)).toBe(7);
      expect(
        await db.prisma.outboxMessage.count({
          where: { topic: Topics.QueryResponded.name, value: { contains: `"credits_remaining":7` } },
        }),
      ).toBe(1);
      // nothing happened between the statements' snapshots and the account's lock
      expect(reread).not.toHaveBeenCalled();
      reread.mockRestore();
    },
  );

  it('does not charge again a job another charge paid for between its snapshot and the account lock', async () => {
    const reread = jest.spyOn(ChargeMetrics.prototype, 'paidReadAgain');
    // the charge's first statement has its snapshot and waits for the lock
    await chargeBesideAnother(false);
    expect(reread).toHaveBeenCalledTimes(1);
    reread.mockRestore();
  });

  it('charges concurrent requests of one account for the same jobs once', () =>
    overlappingCharges('job_race', () => false));

  it('charges a sync search page without a lock held across round trips: once, however often it arrives', async () => {
    const stale = jest.spyOn(ChargeMetrics.prototype, 'unlockedAttemptStale');
    const acct = await account(20);
    await charge(acct, ['job_a', 'job_b'], true, 'req_unlocked_once');
    await charge(acct, ['job_a', 'job_b'], true, 'req_unlocked_once');
    await charge(acct, ['job_b', 'job_c'], true);
    expect(await ledgerOf(acct)).toEqual([
      'job_a:charged:1',
      'job_b:charged:1',
      'job_b:already_paid:0',
      'job_c:charged:1',
    ]);
    expect(await creditsOf(acct)).toBe(17);
    expect(
      await db.prisma.outboxMessage.count({
        where: { topic: Topics.QueryResponded.name, value: { contains: `"query_id":"req_unlocked_once"` } },
      }),
    ).toBe(1);
    expect(
      await db.prisma.outboxMessage.count({
        where: { topic: Topics.QueryResponded.name, value: { contains: `"credits_remaining":17` } },
      }),
    ).toBe(1);
    expect(stale).not.toHaveBeenCalled();
    stale.mockRestore();
  });

  it('writes nothing when the account changed between its read and its write, and reads again', async () => {
    const stale = jest.spyOn(ChargeMetrics.prototype, 'unlockedAttemptStale');
    // the read does not wait (no lock); the write waits for the other charge's lock
    await chargeBesideAnother(true);
    expect(stale).toHaveBeenCalledTimes(1);
    stale.mockRestore();
  });

  it('takes the account before the mark on both paths: two deliveries of one charge at once charge once', async () => {
    const acct = await account(10);
    const queryId = `req_twice_${sequence++}`;
    const other = await heldLock(acct);
    // the unlocked delivery waits for the account first, then the locking one: the first to get
    // the account marks the charge, and the other must wait for the account, never for the mark
    const unlocked = charge(acct, ['job_x'], true, queryId);
    expect(await untilWaitingForLock(other)).toBe(1);
    const locking = charge(acct, ['job_x'], false, queryId);
    expect(await untilWaitingForLock(other, 2)).toBe(2);
    await other.query('ROLLBACK');
    await other.end();
    await Promise.all([unlocked, locking]);
    expect(await ledgerOf(acct)).toEqual(['job_x:charged:1']);
    expect(await creditsOf(acct)).toBe(9);
  });

  it('charges concurrent requests of one account for the same jobs once, locked and unlocked side by side', () =>
    overlappingCharges('job_mixed', (i) => i % 2 === 0));

  it('makes no charge once its asker stopped waiting; a redelivery of one made in time writes nothing', async () => {
    const acct = await account(10);
    const past = new Date(Date.now() - 1);
    await expect(charge(acct, ['job_a'], true, 'req_late_unlocked', past)).rejects.toBeInstanceOf(ChargeExpired);
    await expect(charge(acct, ['job_a'], false, 'req_late_locked', past)).rejects.toBeInstanceOf(ChargeExpired);
    expect(await ledgerOf(acct)).toEqual([]);
    await charge(acct, ['job_b'], true, 'req_in_time', new Date(Date.now() + 60_000));
    await charge(acct, ['job_b'], true, 'req_in_time', past);
    await charge(acct, ['job_b'], false, 'req_in_time', past);
    expect(await ledgerOf(acct)).toEqual(['job_b:charged:1']);
    expect(await creditsOf(acct)).toBe(9);
  });

  it('expires an unlocked charge whose write waited for the account past its asker', () =>
    chargeExpiringBehindLock(true));

  it('expires a locking charge that took the account past its asker', () => chargeExpiringBehindLock(false));
});

describe('a part of a request charged in parts, asked again after its charge (its answer lost)', () => {
  const answers = async (searchId: string) =>
    (
      await db.prisma.outboxMessage.findMany({
        where: { topic: Topics.AsyncChunkCharged.name, key: searchId },
        orderBy: { id: 'asc' },
      })
    ).map((row) => AsyncChunkCharged.ValueSchema.parse(JSON.parse(row.value)));

  it.each([
    ['the balance', 2, null, 'credits'],
    ['the cap', 5, 2, 'max_credits'],
  ] as const)(
    'is answered again as it was charged, stopped by %s, and charges nothing twice',
    async (_, credits, cap, stop) => {
      const acct = await createAccount(db.prisma, `acc_async_${sequence++}`, credits);
      const searchId = `srch_again_${sequence++}`;
      await db.prisma.paidJob.create({ data: { accountId: acct, jobId: 'job_r1' } });
      const useCase = new ChargeAsyncChunkUseCase(charges);
      const batch: AsyncChunkChargeRequested.Value = {
        ...(examples.asyncChunkChargeRequested() as AsyncChunkChargeRequested.Value),
        account_id: acct,
        search_id: searchId,
        batch: 3,
        max_credits: cap,
        job_ids: ['job_r1', 'job_r2', 'job_r3', 'job_r4'],
      };
      await useCase.execute(batch);
      await useCase.execute(batch);
      const [first, again, ...more] = await answers(searchId);
      expect(first).toMatchObject({
        batch: 3,
        collected: [
          { job_id: 'job_r1', reason: 'already_paid' },
          { job_id: 'job_r2', reason: 'charged' },
          { job_id: 'job_r3', reason: 'charged' },
        ],
        stopped: stop,
        credits_charged: 2,
        credits_remaining: credits - 2,
      });
      expect(again).toEqual(first);
      expect(more).toEqual([]);
      expect(await creditsOf(acct)).toBe(credits - 2);
      expect((await ledgerOf(acct)).sort()).toEqual(['job_r1:already_paid:0', 'job_r2:charged:1', 'job_r3:charged:1']);
    },
  );
});
