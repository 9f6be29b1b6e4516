import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleInit } from '@nestjs/common';
import { jsonText, type TopicSpec, type ValueOf } from '@jobs/kafka';
import {
  ascending,
  DATABASE_URL_TOKEN,
  enqueueSerializedOutbox,
  PrismaService,
  type AroundOutboxInsert,
  type OutboxWriter,
  Prisma,
} from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, ReadinessRegistry } from '@jobs/service-kit';
import { RELAY_LOCK_NAMESPACE, RelayLifeLock } from './relay-life-lock.js';

const BATCH = 200;
/**
 * The safety net's period: rows nobody published (a replica that died between its commit and its
 * publish, a publish that failed). One cheap untraced statement when there are none. A sync
 * search's charge is waited for 2 s past the moment billing may still make it: its answer, left
 * by a billing replica that died, must be sent within that.
 */
const SAFETY_POLL_MS = 500;
/** Rows of a relay whose life lock is gone are taken this old (a commit seen a moment before the lock). */
const ORPHAN_OF_DEAD_AFTER_MS = 500;
/** Rows of a live relay (or staged without a key) are taken this old: a publish that failed. */
const ORPHAN_AFTER_MS = 5_000;
/**
 * While rows staged here are not yet seen committed, the relay looks again this soon (a caller that never kicks, a
 * commit still under way).
 */
const PENDING_CHECK_MS = 100;
/**
 * A staged row not seen committed for this long was rolled back (or sent by another replica's safety net): forgotten.
 */
const PENDING_MAX_AGE_MS = 60_000;
/**
 * How long the claim of orphans may stay open around their send: past the producer's own bound on a
 * send, so that a slow broker fails the send, not the transaction after it (rows sent and then not
 * deleted, sent again by the next pass).
 */
const ORPHAN_CLAIM_TIMEOUT_MS = 60_000;

interface OutboxRow {
  id: bigint;
  topic: string;
  key: string;
  /** JSON text, as staged. */
  value: string;
  headers: Record<string, string>;
}

/** A row this replica staged, with its message as it will be sent. */
interface StagedMessage {
  topic: string;
  key: string;
  value: string;
  headers: Record<string, string>;
  stagedAt: number;
  /** Its transaction's caller said it committed (`kick(tx)`): sent without reading back whether it is. */
  committed: boolean;
}

/**
 * Transactional outbox: `stage()` writes a message in the caller's transaction; the relay
 * publishes committed messages and deletes them afterwards. The replica that staged a row
 * publishes it itself, from memory: `kick()` after the commit (or its own check soon after)
 * finds which of its staged rows are committed (one indexed read), sends them in id order and
 * deletes them (one statement): no transaction, no row lock, nothing parsed back. A safety net
 * polls for rows nobody sent, claims them with SKIP LOCKED in a transaction and publishes them:
 * those of a replica that died (its life lock, RelayLifeLock, is gone) after half a second, any
 * row (a failed send) after a few seconds. A crash after a send and before the delete
 * re-publishes, which consumers tolerate (at least once).
 */
@Injectable()
export class OutboxRelay implements OnModuleInit, OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await this.publishStaged();
    if (Date.now() >= this.nextSafetyPollAt) {
      await this.drainOrphans();
      this.nextSafetyPollAt = Date.now() + SAFETY_POLL_MS;
    }
    return this.staged.size > 0 || this.sentNotDeleted.size > 0
      ? PENDING_CHECK_MS
      : Math.max(0, this.nextSafetyPollAt - Date.now());
  });
  /** Rows staged by this replica and not yet published, by id. */
  private readonly staged = new Map<bigint, StagedMessage>();
  /**
   * Rows this replica sent whose delete failed (the database was away): deleted again on each pass,
   * never sent again from here (the safety net sends them once more only if this replica dies first).
   */
  private readonly sentNotDeleted = new Set<bigint>();
  /** The rows each transaction staged, until its caller says it committed (`kick(tx)`). */
  private readonly stagedBy = new WeakMap<object, bigint[]>();
  private nextSafetyPollAt = 0;
  private readonly life: RelayLifeLock;

  constructor(
    private readonly prisma: PrismaService,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
    @Inject(DATABASE_URL_TOKEN) databaseUrl: string,
    drains: DrainRegistry,
    readiness: ReadinessRegistry,
  ) {
    this.life = new RelayLifeLock(databaseUrl, logger);
    drains.register('outbox-relay', () => this.stop());
    readiness.register('outbox-relay', () => !this.loop.isStopped);
  }

  /**
   * Writes a message into the transaction `tx`, with the current context's headers (its consumer checks it against the
   * contract).
   */
  async stage<T extends TopicSpec>(tx: OutboxWriter, topic: T, value: ValueOf<T>): Promise<void> {
    await this.stageMany(tx, topic, [value]);
  }

  /**
   * Several messages of one topic in one insert (published in the array's order), under one span.
   * `around` runs the insert inside a statement of the caller's, its own change beside it (one
   * round trip; see AroundOutboxInsert); `onlyIf` inserts them only when its condition over that
   * statement holds. Whether they were staged.
   */
  async stageMany<T extends TopicSpec>(
    tx: OutboxWriter,
    topic: T,
    values: readonly ValueOf<T>[],
    around?: AroundOutboxInsert,
    onlyIf?: Prisma.Sql,
  ): Promise<boolean> {
    if (values.length === 0) return false;
    let staged = false;
    // The rows keep the trace context of the staging span, so the consumer's span continues
    // this trace however late they are sent.
    await this.publisher.typed.inPublishSpan(
      topic.name,
      values.length,
      async () => {
        // The row holds text: serialized as text (in pieces, see jsonText), not as the bytes a
        // direct publish sends, which would be decoded back here.
        const messages = values.map((value) => ({
          topic: topic.name,
          key: topic.keyOf(value),
          value: jsonText(value),
          headers: this.publisher.typed.headersFor(),
        }));
        const ids = await enqueueSerializedOutbox(tx, messages, { around, onlyIf, stagedBy: this.life.key });
        if (ids.length === 0) return;
        staged = true;
        const stagedAt = Date.now();
        ids.forEach((id, i) => this.staged.set(id, { ...messages[i]!, stagedAt, committed: false }));
        const ofTransaction = this.stagedBy.get(tx);
        if (ofTransaction) ofTransaction.push(...ids);
        else this.stagedBy.set(tx, [...ids]);
      },
      'outbox',
    );
    // in case the caller never kicks after its commit
    if (staged) this.loop.wakeWithin(PENDING_CHECK_MS);
    return staged;
  }

  /** Before anything is staged: rows name the key of a lock that is held. */
  async onModuleInit(): Promise<void> {
    await this.life.start();
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /**
   * Publish now: call after committing a transaction that staged messages, with that
   * transaction (`tx` of the `$transaction` callback) so that its rows go out without a read
   * of whether they are committed.
   */
  kick(committedTx?: object): void {
    const ids = committedTx ? this.stagedBy.get(committedTx) : undefined;
    if (ids) {
      for (const id of ids) {
        const message = this.staged.get(id);
        if (message) message.committed = true;
      }
      this.stagedBy.delete(committedTx!);
    }
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    // Publish what is already committed before the producer disconnects.
    await this.publishStaged().catch(() => undefined);
    // What is left (a failed send) is anyone's to send from now.
    await this.life.stop();
  }

  /** This replica's staged rows that are committed by now: sent in id order, then deleted. */
  private async publishStaged(): Promise<void> {
    if (this.staged.size === 0 && this.sentNotDeleted.size === 0) return;
    try {
      await untraced(async () => {
        const unknown = [...this.staged].filter(([, message]) => !message.committed).map(([id]) => id);
        const seen =
          unknown.length > 0
            ? await this.prisma.$queryRaw<
                { id: bigint }[]
              >`SELECT id FROM outbox_messages WHERE id = ANY(${unknown}::bigint[])`
            : [];
        for (const { id } of seen) {
          const message = this.staged.get(id);
          if (message) message.committed = true;
        }
        const committed = [...this.staged]
          .filter(([, message]) => message.committed)
          .map(([id]) => id)
          .sort(ascending);
        if (committed.length > 0) {
          await this.send(committed.map((id) => ({ id, ...this.staged.get(id)! })));
          for (const id of committed) {
            this.staged.delete(id);
            this.sentNotDeleted.add(id);
          }
        }
        if (this.sentNotDeleted.size > 0) {
          const sent = [...this.sentNotDeleted];
          await this.prisma.$executeRaw`DELETE FROM outbox_messages WHERE id = ANY(${sent}::bigint[])`;
          for (const id of sent) this.sentNotDeleted.delete(id);
        }
        const now = Date.now();
        for (const [id, message] of this.staged)
          if (now - message.stagedAt > PENDING_MAX_AGE_MS) this.staged.delete(id);
      });
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox publish failed; will retry');
    }
  }

  /** Rows nobody published (their replica died, or its send failed), claimed so that one replica sends them. */
  private async drainOrphans(): Promise<void> {
    try {
      // One cheap statement when there are none (nearly always): the oldest rows by the primary
      // key, not a scan for any old row, which reads every page the table ever had where the
      // server does not vacuum; the locks are read only when one of them is old enough. A row
      // created earlier under a larger id (a long transaction) is found once the rows before it
      // are sent. Sent by pg itself, prepared once: it runs twice a second in every replica.
      const orphans = await untraced(
        () => this.prisma.direct.$queryRaw<{ n: number }[]>`
          SELECT 1 AS n FROM (SELECT created_at, staged_by FROM outbox_messages ORDER BY id LIMIT ${BATCH}) AS oldest
          WHERE ${orphaned(Prisma.sql`oldest`)} LIMIT 1`,
      );
      if (orphans.length > 0) while (!this.loop.isStopped && (await untraced(() => this.publishOrphans())) === BATCH);
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox relay pass failed; will retry');
    }
  }

  private async publishOrphans(): Promise<number> {
    return this.prisma.$transaction(
      async (tx) => {
        // not the rows this replica sent and could not delete yet: its own passes delete them
        const sent = [...this.sentNotDeleted];
        const rows = await tx.$queryRaw<OutboxRow[]>`
        SELECT id, topic, key, value, headers FROM outbox_messages o
        WHERE ${orphaned(Prisma.sql`o`)} AND NOT (o.id = ANY(${sent}::bigint[]))
        ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
        if (rows.length === 0) return 0;
        await this.send(rows);
        // sent: gone with the commit (a crash before it sends them again: at least once)
        await tx.$executeRaw`DELETE FROM outbox_messages WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
        for (const row of rows) this.staged.delete(row.id);
        return rows.length;
      },
      { timeout: ORPHAN_CLAIM_TIMEOUT_MS },
    );
  }

  /** Every topic at once (the producer sends them in one request), each topic's messages in id order. */
  private async send(
    messages: ReadonlyArray<{ id: bigint; topic: string; key: string; value: string; headers: Record<string, string> }>,
  ): Promise<void> {
    const byTopic = new Map<string, Array<{ key: string; value: string; headers: Record<string, string> }>>();
    for (const m of messages) {
      const group = byTopic.get(m.topic);
      const message = { key: m.key, value: m.value, headers: m.headers };
      if (group) group.push(message);
      else byTopic.set(m.topic, [message]);
    }
    await Promise.all([...byTopic].map(([topic, group]) => this.publisher.typed.sendRaw(topic, group)));
  }
}

/**
 * Whether the outbox row `row` is nobody's to send: older than a failed send takes, or staged by a
 * relay whose life lock no session of this database holds (its replica is gone) and not brand new.
 * The locks are read once a statement, and only for a row that is old enough.
 */
function orphaned(row: Prisma.Sql): Prisma.Sql {
  return Prisma.sql`(
    ${row}.created_at < now() - make_interval(secs => ${ORPHAN_AFTER_MS / 1000})
    OR (${row}.created_at < now() - make_interval(secs => ${ORPHAN_OF_DEAD_AFTER_MS / 1000})
      AND ${row}.staged_by IS NOT NULL
      AND ${row}.staged_by::oid NOT IN (
        SELECT l.objid FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.granted AND l.objsubid = 2
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
          AND l.classid = ${RELAY_LOCK_NAMESPACE}::int::oid)))`;
}
