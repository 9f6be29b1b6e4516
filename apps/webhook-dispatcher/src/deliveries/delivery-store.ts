import { Injectable } from '@nestjs/common';
import { Prisma, PrismaService } from '@jobs/db';
import type { StoredSecrets } from '@jobs/webhook-targets';
import { afterFailure } from './retry-schedule.js';

/** One attempt a worker now owns: the delivery, its event's stored bytes and its attempt number. */
export interface ClaimedAttempt {
  deliveryId: string;
  accountId: string;
  /** The key mode of the event (a test key's async search makes test events): it picks the signing secret. */
  mode: 'live' | 'test';
  url: string;
  kind: string;
  eventId: string;
  /** The event's own `created_at`: how fresh it is when delivered. */
  eventCreatedAt: Date;
  body: string;
  attempt: number;
  retrySlot: number;
  firstFailedAt: Date | null;
  /**
   * The endpoint's signing secrets as stored (sealed), when they exist yet (the first delivery to an endpoint makes
   * them).
   */
  secret: StoredSecrets | null;
  /** W3C traceparent of the span that made the delivery: the attempt's span continues it. */
  traceParent: string | null;
  /** The request id of the work that made the delivery, for the attempt's log line. */
  requestId: string | null;
}

export type AttemptOutcome =
  | { kind: 'succeeded'; statusCode: number }
  | { kind: 'failed'; statusCode: number | null; error: string | null }
  | { kind: 'refused'; error: string };

/** One attempt that ended, for `finishMany`. */
export interface FinishedAttempt {
  claim: ClaimedAttempt;
  outcome: AttemptOutcome;
  startedAt: Date;
  finishedAt: Date;
}

/** The delivery's state after an attempt. */
export interface NextState {
  status: string;
  dueAt: Date | null;
}

interface ClaimRow {
  id: string;
  account_id: string;
  url: string;
  kind: string;
  attempt_count: number;
  retry_slot: number;
  first_failed_at: Date | null;
  trace_parent: string | null;
  request_id: string | null;
  event_id: string;
  mode: 'live' | 'test';
  event_created_at: Date;
  body: string;
  secret: string | null;
  previous_secret: string | null;
  previous_expires_at: Date | null;
}

/** How long a claimed attempt is owned: longer than the 10 s deadline, so only a dead worker loses it. */
export const LEASE_MS = 30_000;
/** Due rows a claim looks at per delivery it may take: room to pick round robin over endpoints. */
const CANDIDATES_PER_CLAIM = 4;

/** Claims each account holds (under way or waiting) and how many one account may hold at most. */
export interface AccountRoom {
  held: ReadonlyMap<string, number>;
  cap: number;
}
const NO_ACCOUNT_CAP: AccountRoom = { held: new Map(), cap: 2_147_483_647 };

/**
 * The claim of `DeliveryStore.claimDue` as one statement. The attempt a claim interrupts is named by
 * its whole primary key (it can only be the delivery's latest, `attempt_count`; a delivery never
 * claimed has none), so the planner reads it by key whatever its statistics say: a fresh
 * deployment's tables grow by tens of thousands of rows before their first analysis, and without
 * statistics, by the delivery id alone, it joins every attempt ever made instead.
 */
export function claimStatement(
  now: Date,
  limit: number,
  busy: ReadonlyMap<string, number>,
  perEndpoint: number,
  caps: ReadonlyMap<string, number> = new Map(),
  accounts: AccountRoom = NO_ACCOUNT_CAP,
): Prisma.Sql {
  const busyUrls = [...new Set([...busy.keys(), ...caps.keys()])];
  const busyCounts = busyUrls.map((url) => busy.get(url) ?? 0);
  const capOf = (url: string) => caps.get(url) ?? perEndpoint;
  const busyCaps = busyUrls.map(capOf);
  const saturated = busyUrls.filter((url) => (busy.get(url) ?? 0) >= capOf(url));
  const heldAccounts = [...accounts.held.keys()];
  const heldCounts = heldAccounts.map((id) => accounts.held.get(id)!);
  const fullAccounts = heldAccounts.filter((id) => accounts.held.get(id)! >= accounts.cap);
  const leaseEnd = new Date(now.getTime() + LEASE_MS);
  // The due endpoints come from their queues' heads (webhook_endpoint_queues, kept by triggers),
  // oldest first, those it must skip left out there; each endpoint's due rows are then read by index,
  // as many as it has room for, until CANDIDATES_PER_CLAIM per delivery asked are in: the nested loop
  // stops there, and an endpoint whose rows another replica holds (SKIP LOCKED) costs one probe. A
  // skipped endpoint's backlog is never read. Rows locked as candidates but not chosen are free
  // again when the statement commits. Accounts take turns before endpoints do: one account's many
  // endpoints are one account's turn.
  const candidatesMax = limit * CANDIDATES_PER_CLAIM;
  return Prisma.sql`
    WITH heads AS (
      SELECT q.account_id, q.url, q.next_due_at, coalesce(b.n, 0) AS busy, coalesce(b.cap, ${perEndpoint}) AS cap
      FROM webhook_endpoint_queues q
      LEFT JOIN unnest(${busyUrls}::text[], ${busyCounts}::int[], ${busyCaps}::int[]) AS b(url, n, cap) ON b.url = q.url
      WHERE q.next_due_at <= ${now} AND NOT (q.url = ANY(${saturated}::text[]))
        AND NOT (q.account_id = ANY(${fullAccounts}::text[]))
      ORDER BY q.next_due_at
      -- room to pass the endpoints whose candidates another replica's claim holds right now
      LIMIT ${candidatesMax * 4}
    ), candidates AS (
      SELECT d.id, d.url, d.account_id, d.due_at, d.attempt_count, h.busy, h.cap
      FROM (SELECT *, least(cap - busy, ${limit}) AS room FROM heads WHERE busy < cap ORDER BY next_due_at) h
      CROSS JOIN LATERAL (
        SELECT d.id, d.url, d.account_id, d.due_at, d.attempt_count FROM webhook_deliveries d
        WHERE d.account_id = h.account_id AND d.url = h.url AND d.status = 'pending' AND d.due_at <= ${now}
        ORDER BY d.due_at
        LIMIT h.room
        FOR UPDATE SKIP LOCKED
      ) d
      LIMIT ${candidatesMax}
    ), ranked AS (
      SELECT c.id, c.account_id, c.due_at, c.attempt_count,
        row_number() OVER (PARTITION BY c.url ORDER BY c.due_at, c.id) AS turn, c.busy, c.cap
      FROM candidates c
    ), eligible AS (
      SELECT r.id, r.due_at, r.attempt_count, r.turn, coalesce(a.n, 0) AS account_busy,
        row_number() OVER (PARTITION BY r.account_id ORDER BY r.turn, r.due_at, r.id) AS account_turn
      FROM ranked r
      LEFT JOIN unnest(${heldAccounts}::text[], ${heldCounts}::int[]) AS a(id, n) ON a.id = r.account_id
      WHERE r.turn + r.busy <= r.cap
    ), chosen AS (
      SELECT id, attempt_count FROM eligible WHERE account_turn + account_busy <= ${accounts.cap}
      ORDER BY account_turn, turn, due_at LIMIT ${limit}
    ), interrupted AS (
      UPDATE webhook_attempts a SET outcome = 'interrupted', finished_at = ${now}, error =
        'the dispatcher stopped during this attempt'
      FROM chosen
      WHERE chosen.attempt_count > 0 AND a.delivery_id = chosen.id AND a.number = chosen.attempt_count
        AND a.outcome = 'in_flight'
    ), claimed AS (
      UPDATE webhook_deliveries d SET due_at = ${leaseEnd}, attempt_count = d.attempt_count + 1, updated_at = ${now}
      FROM chosen WHERE d.id = chosen.id
      RETURNING d.id, d.account_id, d.url, d.kind, d.attempt_count, d.retry_slot, d.first_failed_at, d.trace_parent,
        d.request_id, d.event_position
    ), attempts AS (
      INSERT INTO webhook_attempts (delivery_id, number, started_at, outcome)
      SELECT id, attempt_count, ${now}, 'in_flight' FROM claimed
    )
    SELECT c.id, c.account_id, c.url, c.kind, c.attempt_count, c.retry_slot, c.first_failed_at, c.trace_parent,
      c.request_id, e.event_id, e.mode, e.created_at AS event_created_at, e.body, s.secret, s.previous_secret,
      s.previous_expires_at
    FROM claimed c
    JOIN webhook_events e ON e.position = c.event_position
    LEFT JOIN webhook_endpoint_secrets s ON s.account_id = c.account_id AND s.mode = e.mode AND s.url = c.url`;
}

/**
 * Deliveries held durably in PostgreSQL. A due delivery is claimed with FOR UPDATE SKIP LOCKED
 * (replicas never take the same one) and its due time moves to the end of a lease: if the worker
 * dies during the attempt, the delivery is due again when the lease ends and the unfinished
 * attempt is recorded as `interrupted`. A finish applies only while the attempt is still the
 * delivery's latest, so a late finish after a lease was lost changes nothing. A claim and a
 * batch of finishes are one statement each, whatever their size.
 */
@Injectable()
export class DeliveryStore {
  constructor(private readonly prisma: PrismaService) {}

  /**
   * Up to `limit` due deliveries, each with its attempt row (`in_flight`) written in the same
   * statement. An endpoint gets at most `perEndpoint` minus its attempts already under way
   * (`busy`), an account at most `accounts.cap` minus the claims it holds, and accounts, then
   * endpoints, share the claim round robin: every account's oldest due delivery before any
   * account's second, so a backlog on one endpoint or of one account never starves another.
   */
  async claimDue(
    now: Date,
    limit: number,
    busy: ReadonlyMap<string, number>,
    perEndpoint: number,
    caps?: ReadonlyMap<string, number>,
    accounts?: AccountRoom,
  ): Promise<ClaimedAttempt[]> {
    if (limit <= 0) return [];
    const rows = await this.prisma.$queryRaw<ClaimRow[]>(claimStatement(now, limit, busy, perEndpoint, caps, accounts));
    return rows.map((row) => ({
      deliveryId: row.id,
      accountId: row.account_id,
      mode: row.mode,
      url: row.url,
      kind: row.kind,
      eventId: row.event_id,
      eventCreatedAt: row.event_created_at,
      body: row.body,
      // attempt_count as RETURNING gives it: already counting this attempt
      attempt: row.attempt_count,
      retrySlot: row.retry_slot,
      firstFailedAt: row.first_failed_at,
      secret:
        row.secret === null
          ? null
          : { secret: row.secret, previousSecret: row.previous_secret, previousExpiresAt: row.previous_expires_at },
      traceParent: row.trace_parent,
      requestId: row.request_id,
    }));
  }

  /** Records one attempt and the delivery's next state: done, retry at its slot, or given up. */
  async finish(
    claim: ClaimedAttempt,
    outcome: AttemptOutcome,
    startedAt: Date,
    finishedAt: Date,
    scale: number,
  ): Promise<NextState> {
    const [next] = await this.finishMany([{ claim, outcome, startedAt, finishedAt }], scale);
    return next!;
  }

  /**
   * Records attempts and their deliveries' next states in one statement. An attempt whose lease
   * was lost meanwhile (another worker claimed the delivery again) changes nothing.
   */
  async finishMany(finished: readonly FinishedAttempt[], scale: number): Promise<NextState[]> {
    if (finished.length === 0) return [];
    const states = finished.map(({ claim, outcome, finishedAt }) => nextStateOf(claim, outcome, finishedAt, scale));
    const iso = (date: Date | null) => date?.toISOString() ?? null;
    await this.prisma.$executeRaw`
      WITH f AS (
        SELECT * FROM unnest(
          ${finished.map((f) => f.claim.deliveryId)}::text[], ${finished.map((f) => f.claim.attempt)}::int[],
          ${finished.map((f) => f.outcome.kind)}::text[], ${finished.map((f) => f.finishedAt.toISOString())}::text[],
          ${finished.map((f) => Math.max(0, f.finishedAt.getTime() - f.startedAt.getTime()))}::int[],
          ${finished.map((f) => (f.outcome.kind === 'refused' ? null : f.outcome.statusCode))}::int[],
          ${finished.map((f) => (f.outcome.kind === 'succeeded' ? null : f.outcome.error))}::text[],
          ${states.map((s) => s.status)}::text[], ${states.map((s) => iso(s.dueAt))}::text[],
          ${states.map((s) => s.retrySlot)}::int[], ${states.map((s) => iso(s.firstFailedAt))}::text[]
        ) AS f(id, number, outcome, finished_at, duration_ms, status_code, error, status, due_at, retry_slot,
          first_failed_at)
      ), attempts AS (
        UPDATE webhook_attempts a
        SET outcome = f.outcome, finished_at = f.finished_at::timestamptz, duration_ms = f.duration_ms, status_code =
          f.status_code, error = f.error
        FROM f WHERE a.delivery_id = f.id AND a.number = f.number AND a.outcome = 'in_flight'
      )
      UPDATE webhook_deliveries d
      SET status = f.status, due_at = f.due_at::timestamptz, retry_slot = f.retry_slot, first_failed_at =
        f.first_failed_at::timestamptz, updated_at = f.finished_at::timestamptz
      FROM f WHERE d.id = f.id AND d.attempt_count = f.number AND d.status = 'pending'`;
    return states.map(({ status, dueAt }) => ({ status, dueAt }));
  }

  /**
   * Hands back claims whose attempt never started (the worker stops, or a claim waited too long
   * for its endpoint's slot): each delivery is due again at once, as if never claimed (its
   * `in_flight` attempt row is removed, its attempt count restored). A claim another worker has
   * taken since (its lease ended) is left alone.
   */
  async giveBack(claims: readonly ClaimedAttempt[], now: Date): Promise<void> {
    if (claims.length === 0) return;
    await this.prisma.$executeRaw`
      WITH back AS (
        SELECT * FROM unnest(${claims.map((c) => c.deliveryId)}::text[], ${claims.map((c) => c.attempt)}::int[]) AS
          b(id, number)
      ), unstarted AS (
        DELETE FROM webhook_attempts a USING back WHERE a.delivery_id = back.id AND a.number = back.number AND a.outcome
          = 'in_flight'
      )
      UPDATE webhook_deliveries d SET due_at = ${now}, attempt_count = d.attempt_count - 1, updated_at = ${now}
      FROM back WHERE d.id = back.id AND d.attempt_count = back.number AND d.status = 'pending'`;
  }

  /** The earliest due time of any pending delivery (for the worker's next wake-up). */
  async nextDueAt(): Promise<Date | null> {
    const row = await this.prisma.webhookDelivery.findFirst({
      where: { status: 'pending' },
      orderBy: { dueAt: 'asc' },
      select: { dueAt: true },
    });
    return row?.dueAt ?? null;
  }
}

/** The delivery's state after an attempt that ended at `finishedAt` (the retry schedule for a failure). */
function nextStateOf(
  claim: ClaimedAttempt,
  outcome: AttemptOutcome,
  finishedAt: Date,
  scale: number,
): NextState & { retrySlot: number; firstFailedAt: Date | null } {
  if (outcome.kind === 'succeeded')
    return { status: 'succeeded', dueAt: null, retrySlot: claim.retrySlot, firstFailedAt: claim.firstFailedAt };
  if (outcome.kind === 'refused')
    return {
      status: 'refused',
      dueAt: null,
      retrySlot: claim.retrySlot,
      firstFailedAt: claim.firstFailedAt ?? finishedAt,
    };
  const after = afterFailure({ retrySlot: claim.retrySlot, firstFailedAt: claim.firstFailedAt }, finishedAt, scale);
  return after.kind === 'retry'
    ? { status: 'pending', dueAt: after.dueAt, retrySlot: after.retrySlot, firstFailedAt: after.firstFailedAt }
    : { status: 'failed', dueAt: null, retrySlot: after.retrySlot, firstFailedAt: after.firstFailedAt };
}
