import { Injectable } from '@nestjs/common';
import {
  planCharges,
  type ChargeInput,
  type ChargeLine,
  type ChargePlan,
  type PartialChargePlan,
} from '@jobs/billing-rules';
import { askerGaveUp, isUniqueViolation, Prisma, PrismaService, type OutboxWriter } from '@jobs/db';
import { NonRetriableError, type TopicSpec, type ValueOf } from '@jobs/kafka';
import { newId } from '@jobs/observability';
import { OutboxRelay } from '@jobs/outbox';
import { ChargeMetrics, type ChargeKind } from './charge-metrics.js';

export interface ChargeRequest {
  /** Idempotency key of the charge: it is written once, however often the request arrives. */
  chargeKey: string;
  /** What is charged, for the metrics. */
  kind: ChargeKind;
  accountId: string;
  requestId: string;
  operation: string;
  jobIds: readonly string[];
  maxCredits: number | null;
  mode: ChargeInput['mode'];
  /** The rules to apply; default `planCharges` (one page: all of it, or 402). */
  rules?: (input: ChargeInput) => ChargePlan;
  /**
   * `maxCredits` caps the whole request, charged in several parts (an async search): the credits
   * already charged under `requestId` are counted in the transaction and taken off the cap.
   */
  capAcrossParts?: boolean;
  /**
   * When the asker stops waiting (it has answered its caller `internal_error` by then): a charge
   * not made by this moment is not made (`ChargeExpired`). Absent: no bound.
   */
  answerBy?: string;
  /**
   * A request asked again after its charge was made (its mark found) is answered again, with the
   * plan its ledger lines show (a part of a request charged in parts, `capAcrossParts`): the
   * first answer may have been lost after the commit, and its asker waits for one.
   */
  answerAgain?: boolean;
}

/** The charge's asker stopped waiting before it was made: nothing was written. */
export class ChargeExpired extends Error {
  constructor(readonly creditsRemaining: number) {
    super('the charge expired before it was made');
  }
}

/**
 * Stages the caller's answer in the outbox, in the same statement as the charge's own writes when
 * they are still to go (one round trip less on every charge's path).
 */
export type StageAnswer = <T extends TopicSpec>(topic: T, value: ValueOf<T>) => Promise<void>;

/** What a caller answers with, inside the same transaction as the charge. */
export type Answer = (
  tx: Prisma.TransactionClient,
  plan: ChargePlan,
  creditsRemaining: number,
  stage: StageAnswer,
) => Promise<void>;

/** An answer that only stages messages (no statement of its own): it may be built more than once. */
export type StagedAnswer = (plan: ChargePlan, creditsRemaining: number, stage: StageAnswer) => Promise<void>;

/** Reads and conditional writes before `chargeWithoutLock` falls back to the locking transaction. */
const UNLOCKED_ATTEMPTS = 4;

/**
 * The one way billing charges: in a single transaction it writes the idempotency mark, locks
 * the account row (one account's charges serialize across replicas), applies the billing
 * rules to the paid-jobs set, writes paid jobs, ledger lines and the balance, and stages the
 * caller's answer in the outbox (the writes and the answer's row in one statement). A
 * redelivered request finds its mark and does nothing.
 */
@Injectable()
export class AccountCharges {
  private readonly metrics = new ChargeMetrics();

  constructor(
    private readonly prisma: PrismaService,
    private readonly outbox: OutboxRelay,
  ) {}

  async charge(request: ChargeRequest, answer: Answer): Promise<void> {
    let decided: ChargePlan | undefined;
    let committed: Prisma.TransactionClient | undefined;
    try {
      await this.prisma.$transaction(async (tx) => {
        committed = tx;
        // The account's lock, the mark and the paid jobs in one statement, the lock first (the mark is
        // inserted from it), as `chargeWithoutLock` takes them: two deliveries of one charge on two
        // paths never hold one each and wait for the other. A second delivery waits for the first
        // one's commit at the row lock, then finds the mark; the lock's read gives the balance as the
        // last charge left it. The paid jobs are read in the statement's snapshot, taken before the lock: if
        // a charge committed in between (the locked row is a newer version than the snapshot's,
        // `xmin`), they are read again in a statement of their own. Every charge that pays for
        // a job also updates the account row in its transaction (chargeWrites), so an unchanged
        // row means no paid job the snapshot misses.
        const [locked] = await tx.$queryRaw<
          Array<{
            marked: number;
            credits_remaining: number | null;
            current: boolean;
            paid: string[] | null;
            in_time: boolean | null;
          }>
        >`
          WITH locked AS (
            SELECT credits_remaining, xmin::text AS version FROM accounts WHERE id = ${request.accountId} FOR UPDATE
          ), mark AS (
            INSERT INTO processed_messages (consumer_group, message_id) SELECT 'billing', ${request.chargeKey}
              FROM locked ON CONFLICT DO NOTHING RETURNING 1
          )
          SELECT (SELECT count(*) FROM mark)::int AS marked,
            (SELECT credits_remaining FROM locked) AS credits_remaining,
            (SELECT version FROM locked) IS NOT DISTINCT FROM (SELECT xmin::text FROM accounts WHERE id =
              ${request.accountId}) AS current,
            (SELECT array_agg(job_id) FROM ${paidAmong(request)}) AS paid,
            (SELECT ${inTime(request)} FROM locked) AS in_time`;
        // (a SELECT without FROM: always one row; an unknown account has no lock and so no mark)
        if (locked!.marked === 0 && locked!.credits_remaining !== null) {
          // already charged: a redelivery, or an asker whose answer was lost asking again
          if (request.answerAgain)
            await answer(tx, await this.madePlan(tx, request), locked!.credits_remaining, (topic, value) =>
              this.outbox.stageMany(tx, topic, [value]).then(() => undefined),
            );
          return;
        }
        const credits = locked!.credits_remaining;
        if (credits === null) throw new NonRetriableError(`unknown account ${request.accountId}`);
        // in_time is read once the row is locked, and the lock is held to the commit: decided in
        // time, committed in time (the throw rolls the mark back)
        if (locked!.in_time === false || askerGaveUp(request.answerBy)) throw this.expired(request, credits);
        const paid = locked!.current ? (locked!.paid ?? []) : await this.paidJobs(tx, request);
        const plan = (request.rules ?? planCharges)({
          jobIds: request.jobIds,
          alreadyPaid: new Set(paid),
          creditsRemaining: credits,
          maxCredits: request.capAcrossParts ? await this.capLeft(tx, request) : request.maxCredits,
          mode: request.mode,
        });
        // the charge's writes go with the answer's outbox row (or alone after the answer, if it stages nothing)
        let writes = plan.kind === 'ok' ? chargeWrites(request, plan) : null;
        const stage: StageAnswer = async (topic, value) => {
          const within = writes;
          writes = null;
          await this.outbox.stageMany(
            tx,
            topic,
            [value],
            within ? (insert) => Prisma.sql`WITH ${within}, staged AS (${insert}) SELECT id FROM staged` : undefined,
          );
        };
        decided = plan;
        await answer(tx, plan, credits - (plan.kind === 'ok' ? plan.creditsCharged : 0), stage);
        if (writes) await tx.$executeRaw`WITH ${writes} SELECT 1`;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return; // already charged and answered: a redelivery
      throw error;
    }
    if (decided) this.metrics.record(request.kind, decided);
    this.outbox.kick(committed);
  }

  /**
   * A charge in two statements and no transaction around them (each statement is one), for the
   * sync search's path: BEGIN, the account's lock held across a round trip and COMMIT cost it
   * round trips that weigh on every search. The first statement reads the mark, the balance, the
   * paid jobs and the account row's version (`xmin`) in one snapshot; the rules decide; the second
   * statement writes the mark, the charge and the answer's outbox row only if the account row is
   * still that version once locked (`fresh`), all or nothing. Every charge that pays for a job
   * updates the account row beside it (chargeWrites), so an unchanged version means no paid job
   * and no balance change the first statement missed. Otherwise nothing is written and the charge
   * reads again; a redelivery finds its mark (or meets it in the insert) and writes nothing. After
   * UNLOCKED_ATTEMPTS, the locking transaction (`charge`) decides.
   */
  async chargeWithoutLock(request: ChargeRequest, answer: StagedAnswer): Promise<void> {
    for (let attempt = 0; attempt < UNLOCKED_ATTEMPTS; attempt++) {
      const [seen] = await this.prisma.$queryRaw<
        Array<{ done: boolean; credits_remaining: number | null; version: string | null; paid: string[] | null }>
      >`
        SELECT EXISTS (SELECT 1 FROM processed_messages WHERE consumer_group = 'billing' AND message_id =
          ${request.chargeKey}) AS done,
          a.credits_remaining, a.xmin::text AS version,
          (SELECT array_agg(job_id) FROM ${paidAmong(request)}) AS paid
        FROM (SELECT 1) AS one LEFT JOIN accounts a ON a.id = ${request.accountId}`;
      if (seen!.done) return; // already charged and answered: a redelivery
      const credits = seen!.credits_remaining;
      if (credits === null) throw new NonRetriableError(`unknown account ${request.accountId}`);
      if (askerGaveUp(request.answerBy)) throw this.expired(request, credits);
      const plan = (request.rules ?? planCharges)({
        jobIds: request.jobIds,
        alreadyPaid: new Set(seen!.paid ?? []),
        creditsRemaining: credits,
        maxCredits: request.maxCredits,
        mode: request.mode,
      });
      // one statement: the guard, the mark, the writes (each only after the mark) and the answer's outbox row
      const guarded = Prisma.sql`
        fresh AS (SELECT 1 FROM accounts WHERE id = ${request.accountId} AND xmin::text = ${seen!.version} FOR UPDATE),
        mark AS (
          INSERT INTO processed_messages (consumer_group, message_id) SELECT 'billing', ${request.chargeKey} FROM fresh
            WHERE ${inTime(request)} ON CONFLICT DO NOTHING RETURNING 1
        )`;
      const marked = Prisma.sql`EXISTS (SELECT 1 FROM mark)`;
      const writes = plan.kind === 'ok' ? chargeWrites(request, plan, marked) : null;
      const within = writes ? Prisma.sql`${guarded}, ${writes}` : guarded;
      // One writer per attempt: the relay sends what it staged once its statement returns (committed).
      const writer: OutboxWriter = { $queryRaw: this.prisma.$queryRaw.bind(this.prisma) };
      let staged: boolean | undefined;
      const stage: StageAnswer = async (topic, value) => {
        if (staged !== undefined) throw new Error('chargeWithoutLock: an answer stages one message');
        staged = await this.outbox.stageMany(
          writer,
          topic,
          [value],
          (insert) => Prisma.sql`WITH ${within}, staged AS (${insert}) SELECT id FROM staged`,
          marked,
        );
      };
      try {
        await answer(plan, credits - (plan.kind === 'ok' ? plan.creditsCharged : 0), stage);
        if (staged === undefined) {
          const [row] = await this.prisma.$queryRaw<
            Array<{ marked: boolean }>
          >`WITH ${within} SELECT ${marked} AS marked`;
          staged = row!.marked;
        }
      } catch (error) {
        if (isUniqueViolation(error)) return; // already charged and answered: a redelivery
        throw error;
      }
      if (staged) {
        this.metrics.record(request.kind, plan);
        this.outbox.kick(writer);
        return;
      }
      // the account changed since the read (or a redelivery's mark met this one, or the answer's
      // moment passed while the row was locked): read again
      this.metrics.unlockedAttemptStale();
    }
    await this.charge(request, (_tx, plan, creditsRemaining, stage) => answer(plan, creditsRemaining, stage));
  }

  private expired(request: ChargeRequest, creditsRemaining: number): ChargeExpired {
    this.metrics.recordExpired(request.kind);
    return new ChargeExpired(creditsRemaining);
  }

  /** The request's jobs the account paid for, read in a statement of its own (after the account's lock). */
  private async paidJobs(tx: Prisma.TransactionClient, request: ChargeRequest): Promise<string[]> {
    this.metrics.paidReadAgain();
    const rows = await tx.$queryRaw<Array<{ job_id: string }>>`SELECT job_id FROM ${paidAmong(request)}`;
    return rows.map((row) => row.job_id);
  }

  /**
   * The plan a part of a request charged in parts was made with, as its ledger lines show: the
   * prefix of its jobs with a line under the request (charged or already paid, in the part's
   * order), stopped by the cap when none is left, else by the balance, when jobs follow.
   */
  private async madePlan(tx: Prisma.TransactionClient, request: ChargeRequest): Promise<PartialChargePlan> {
    const jobIds = [...new Set(request.jobIds)];
    const rows = await tx.ledgerEntry.findMany({
      where: {
        accountId: request.accountId,
        requestId: request.requestId,
        jobId: { in: jobIds },
        reason: { in: ['charged', 'already_paid'] },
      },
      select: { jobId: true, reason: true },
    });
    const reasonOf = new Map(rows.map((row) => [row.jobId, row.reason]));
    const lines = jobIds.flatMap((jobId): ChargeLine[] => {
      const reason = reasonOf.get(jobId);
      if (reason === 'charged') return [{ jobId, reason, credits: 1 }];
      return reason === 'already_paid' ? [{ jobId, reason, credits: 0 }] : [];
    });
    const stopped =
      lines.length === jobIds.length ? null : (await this.capLeft(tx, request)) === 0 ? 'max_credits' : 'credits';
    return {
      kind: 'ok',
      lines,
      creditsCharged: lines.reduce((sum, line) => sum + line.credits, 0),
      alreadyPaid: lines.filter((line) => line.reason === 'already_paid').length,
      stopped,
    };
  }

  /** What a request charged in parts may still charge: its cap less the credits its ledger lines hold. */
  private async capLeft(tx: Prisma.TransactionClient, request: ChargeRequest): Promise<number | null> {
    if (request.maxCredits === null) return null;
    const spent = await tx.ledgerEntry.aggregate({
      where: { accountId: request.accountId, requestId: request.requestId },
      _sum: { credits: true },
    });
    return Math.max(0, request.maxCredits - (spent._sum.credits ?? 0));
  }
}

/**
 * Still before `answerBy`, read after the account row's lock (a volatile function, evaluated
 * as the row comes): a charge that waited for the lock past it writes nothing.
 */
const inTime = (request: ChargeRequest): Prisma.Sql =>
  request.answerBy === undefined ? Prisma.sql`true` : Prisma.sql`clock_timestamp() < ${request.answerBy}::timestamptz`;

/**
 * The request's jobs in the account's paid jobs, as a `FROM` item (read in the first statement, and again after a
 * re-read).
 */
const paidAmong = (request: ChargeRequest): Prisma.Sql =>
  Prisma.sql`paid_jobs WHERE account_id = ${request.accountId} AND job_id = ANY(${[...request.jobIds]}::text[])`;

/**
 * The paid jobs, the balance and the ledger lines of a charge, as the CTEs of one statement
 * (`WITH <these>, …`), or null when the plan writes nothing; `onlyIf`, a condition over the
 * statement's other CTEs, writes them only when it holds. Paid jobs are written only with the
 * account row's update beside them: `charge` and `chargeWithoutLock` rely on it to know their
 * snapshot saw them all.
 */
function chargeWrites(
  request: ChargeRequest,
  plan: Extract<ChargePlan, { kind: 'ok' }>,
  onlyIf: Prisma.Sql = Prisma.sql`true`,
): Prisma.Sql | null {
  if (plan.lines.length === 0) return null;
  const charged = plan.lines.filter((l) => l.reason === 'charged').map((l) => l.jobId);
  return Prisma.sql`
    paid AS (
      INSERT INTO paid_jobs (account_id, job_id) SELECT ${request.accountId}, x FROM unnest(${charged}::text[]) AS x
        WHERE ${onlyIf}
    ), balance AS (
      UPDATE accounts SET credits_remaining = credits_remaining - ${plan.creditsCharged}::int, updated_at = now()
      WHERE id = ${request.accountId} AND ${charged.length}::int > 0 AND ${onlyIf}
    ), ledger AS (
      -- dated when written, under the account's lock (not when the transaction began, which may be
      -- before another charge of the account committed): an account's lines are dated in the order
      -- they commit, so a reader paging newest first never finds an older line appear later
      INSERT INTO ledger_entries (id, account_id, job_id, request_id, operation, credits, reason, created_at)
      SELECT v.id, ${request.accountId}, v.job_id, ${request.requestId}, ${request.operation}, v.credits,
        v.reason::ledger_reason, clock_timestamp()
      FROM unnest(
        ${plan.lines.map(() => newId('led'))}::text[],
        ${plan.lines.map((l) => l.jobId)}::text[],
        ${plan.lines.map((l) => l.credits)}::int[],
        ${plan.lines.map((l) => l.reason)}::text[]
      ) WITH ORDINALITY AS v(id, job_id, credits, reason, n)
      WHERE ${onlyIf}
      ORDER BY v.n
    )`;
}
