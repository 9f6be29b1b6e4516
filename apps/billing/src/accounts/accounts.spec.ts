// Integration test against the real PostgreSQL: billing opens accounts and applies top-ups for
// the admin API, a top-up exactly once however often its message comes.
import { throwawayDatabase, type ThrowawayDatabase } from '@jobs/db/testing';
import type { BillingQueryRequested } from '@jobs/contracts';
import { outboxStub } from '@jobs/outbox/testing';
import { ChargeExpired } from '../charges/account-charges.js';
import { ChargeCompanyUseCase } from '../queries/charge-company.usecase.js';
import { AddCreditsUseCase, MAX_STORED_INT } from './add-credits.usecase.js';
import { CreditResets } from './credit-resets.js';
import { CREDIT_PERIOD_DAYS, OpenAccountUseCase } from './open-account.usecase.js';

let db: ThrowawayDatabase;
let open: OpenAccountUseCase;
let addCredits: AddCreditsUseCase;

beforeAll(async () => {
  db = await throwawayDatabase('accounts');
  open = new OpenAccountUseCase(db.prisma);
  addCredits = new AddCreditsUseCase(db.prisma, outboxStub());
}, 60_000);

afterAll(async () => {
  await db?.drop();
});

/** A top-up message, applied by billing as its queries consumer does. */
function topUp(accountId: string, amount: number, queryId: string, answerBy?: string): Promise<void> {
  const query = { kind: 'credits.add', amount } as const;
  const message: BillingQueryRequested.Value = {
    v: 1,
    query_id: queryId,
    account_id: accountId,
    mode: 'live',
    query,
    ...(answerBy ? { answer_by: answerBy } : {}),
  };
  return addCredits.execute(message, query);
}

/** A Pro account opened by billing with 10 credits. */
const proAccount = (id: string) =>
  open.execute(id, { kind: 'account.open', plan: 'pro', credits: 10, rate_limit: { limit: 10, window_seconds: 1 } });

/** The values staged in the outbox for `topic`, oldest first. */
async function staged(topic: string): Promise<Array<Record<string, unknown>>> {
  const rows = await db.prisma.outboxMessage.findMany({ where: { topic }, orderBy: { id: 'asc' } });
  return rows.map((row) => JSON.parse(row.value) as Record<string, unknown>);
}

describe('accounts in billing', () => {
  it('opens an account with its plan, credits and rate limit, and opening it again changes nothing', async () => {
    const query = {
      kind: 'account.open',
      plan: 'growth',
      credits: 25,
      rate_limit: { limit: 40, window_seconds: 30 },
    } as const;
    expect(await open.execute('acc_open', query)).toEqual({ kind: 'account.open', credits_remaining: 25 });
    expect(await open.execute('acc_open', { ...query, credits: 99 })).toEqual({
      kind: 'account.open',
      credits_remaining: 25,
    });
    const account = await db.prisma.account.findUniqueOrThrow({ where: { id: 'acc_open' } });
    expect(account).toMatchObject({
      plan: 'growth',
      creditsRemaining: 25,
      monthlyCredits: 25,
      rateLimitLimit: 40,
      rateLimitWindowSeconds: 30,
    });
    expect(account.creditsResetAt.getTime()).toBeGreaterThan(Date.now());
  });

  it('adds credits once per message, announcing the top-up and answering in the same transaction', async () => {
    await proAccount('acc_topup');
    await topUp('acc_topup', 15, 'req_topup_1');
    await topUp('acc_topup', 15, 'req_topup_1'); // the same message again
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: 'acc_topup' } })).creditsRemaining).toBe(25);
    expect(await staged('account.credits.added')).toEqual([
      expect.objectContaining({ account_id: 'acc_topup', amount: 15, credits_remaining: 25 }),
    ]);
    // the held watch events' release rides the account's event.charge.requested partition
    expect(await staged('event.charge.requested')).toEqual([
      { v: 1, account_id: 'acc_topup', release_held: { because: 'credits_added' } },
    ]);
    expect((await staged('query.responded')).filter((answer) => answer['query_id'] === 'req_topup_1')).toEqual([
      expect.objectContaining({ outcome: 'ok', result: { kind: 'credits.add', credits_remaining: 25 } }),
    ]);
  });

  it('answers not_found for an unknown account and invalid_request past the column range, adding nothing', async () => {
    await topUp('acc_nobody', 5, 'req_topup_2');
    await topUp('acc_topup', MAX_STORED_INT - 10, 'req_topup_3');
    const answers = (await staged('query.responded')).filter((answer) =>
      ['req_topup_2', 'req_topup_3'].includes(String(answer['query_id'])),
    );
    expect(answers).toEqual([
      expect.objectContaining({
        query_id: 'req_topup_2',
        outcome: 'error',
        error: expect.objectContaining({ code: 'not_found' }),
      }),
      expect.objectContaining({
        query_id: 'req_topup_3',
        outcome: 'error',
        error: expect.objectContaining({ code: 'invalid_request', param: 'amount' }),
      }),
    ]);
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: 'acc_topup' } })).creditsRemaining).toBe(25);
    expect(await staged('account.credits.added')).toHaveLength(1);
  });

  it('changes nothing when the account was locked past the moment its asker stopped waiting', async () => {
    await proAccount('acc_late');
    const answerBy = new Date(Date.now() + 300).toISOString();
    const company = new ChargeCompanyUseCase(db.prisma, outboxStub());
    const query = {
      kind: 'company.charge',
      domain: 'acme.example',
      operation: 'GET /v1/companies/acme.example',
    } as const;
    // another transaction holds the account's row past answer_by: both arrived in time, and wait for it
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let locked!: () => void;
    const holding = new Promise<void>((resolve) => (locked = resolve));
    const holder = db.prisma.$transaction(
      async (tx) => {
        await tx.$queryRaw`SELECT id FROM accounts WHERE id = 'acc_late' FOR UPDATE`;
        locked();
        await held;
      },
      { timeout: 10_000 },
    );
    await holding;
    const late = [
      topUp('acc_late', 5, 'req_late_topup', answerBy),
      company.execute(
        { v: 1, query_id: 'req_late_company', account_id: 'acc_late', mode: 'live', query, answer_by: answerBy },
        query,
      ),
    ].map((p) =>
      p.then(
        () => 'done',
        (error: unknown) => error,
      ),
    );
    await new Promise((r) => setTimeout(r, 600));
    release();
    await holder;
    for (const outcome of await Promise.all(late)) expect(outcome).toBeInstanceOf(ChargeExpired);
    expect((await db.prisma.account.findUniqueOrThrow({ where: { id: 'acc_late' } })).creditsRemaining).toBe(10);
    expect(await db.prisma.ledgerEntry.count({ where: { accountId: 'acc_late' } })).toBe(0);
    // rolled back with its mark: a redelivery is refused at the door (answer_by has passed), not charged
    expect(await db.prisma.processedMessage.count({ where: { messageId: { contains: 'req_late' } } })).toBe(0);
  });

  it('resets credits when due: the allowance is back, top-ups kept, the next reset whole periods on', async () => {
    const period = CREDIT_PERIOD_DAYS * 86_400_000;
    const now = new Date();
    await proAccount('acc_reset_spent');
    await proAccount('acc_reset_topped');
    await proAccount('acc_reset_not_due');
    const dueAt = new Date(now.getTime() - 2.5 * period);
    await db.prisma.account.update({
      where: { id: 'acc_reset_spent' },
      data: { creditsRemaining: 2, creditsResetAt: dueAt },
    });
    await db.prisma.account.update({
      where: { id: 'acc_reset_topped' },
      data: { creditsRemaining: 50, creditsResetAt: dueAt },
    });
    await db.prisma.account.update({ where: { id: 'acc_reset_not_due' }, data: { creditsRemaining: 3 } });
    const resets = new CreditResets(
      db.prisma,
      outboxStub(),
      { info: () => undefined, warn: () => undefined } as never,
      { register: () => undefined } as never,
    );
    const before = (await staged('account.credits.added')).length;
    const releasesBefore = (await staged('event.charge.requested')).length;
    expect(await resets.resetDue(now)).toBe(2);
    expect(await resets.resetDue(now)).toBe(0); // reset once
    const accounts = await db.prisma.account.findMany({
      where: { id: { startsWith: 'acc_reset_' } },
      orderBy: { id: 'asc' },
    });
    expect(accounts.map((a) => [a.id, a.creditsRemaining])).toEqual([
      ['acc_reset_not_due', 3],
      ['acc_reset_spent', 10],
      ['acc_reset_topped', 50],
    ]);
    for (const a of accounts.filter((a) => a.id !== 'acc_reset_not_due'))
      expect(a.creditsResetAt.getTime()).toBe(dueAt.getTime() + 3 * period);
    expect((await staged('account.credits.added')).slice(before)).toEqual([
      expect.objectContaining({ account_id: 'acc_reset_spent', amount: 8, credits_remaining: 10 }),
    ]);
    expect((await staged('event.charge.requested')).slice(releasesBefore)).toEqual([
      { v: 1, account_id: 'acc_reset_spent', release_held: { because: 'credits_reset' } },
    ]);
  });
});
