import { Inject, Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import type { TopicSpec, ValueOf } from '@jobs/kafka';
import { enqueueOutboxMany, PrismaService, type OutboxWriter } from '@jobs/db';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { untraced, type Logger } from '@jobs/observability';
import { DrainRegistry, KickableLoop, LOGGER, ReadinessRegistry } from '@jobs/service-kit';

const BATCH = 200;
/**
 * The safety net's period: rows nobody kicked for (a replica that crashed between its commit and
 * its publish). Polls are untraced and cheap, but an idle service should not wake for nothing.
 */
const IDLE_POLL_MS = 5_000;
/** After a stage() the relay looks every SOON_POLL_MS for a while, in case the caller never kicks. */
const SOON_POLL_MS = 200;
const SOON_WINDOW_MS = 10_000;

interface OutboxRow {
  id: bigint;
  topic: string;
  key: string;
  value: unknown;
  headers: Record<string, string>;
}

/**
 * Transactional outbox: `stage()` writes a message in the caller's transaction; the relay
 * publishes committed messages in id order and deletes them in the same transaction. `kick()` after a commit publishes at
 * once; a poll catches everything else (a caller that did not kick, a crash between commit and
 * publish: then another replica's relay, or this one's after its restart, sends the rows). Rows are claimed with SKIP LOCKED, so replicas never publish the same row concurrently;
 * a crash after send and before the mark re-publishes, which consumers tolerate (at least once).
 */
@Injectable()
export class OutboxRelay implements OnApplicationBootstrap {
  private readonly loop = new KickableLoop(async () => {
    await this.drain();
    return Date.now() < this.soonUntil ? SOON_POLL_MS : IDLE_POLL_MS;
  });
  /** Until when a staged row may still be waiting for its transaction's commit and a kick. */
  private soonUntil = 0;

  constructor(
    private readonly prisma: PrismaService,
    private readonly publisher: KafkaPublisher,
    @Inject(LOGGER) private readonly logger: Logger,
    drains: DrainRegistry,
    readiness: ReadinessRegistry,
  ) {
    drains.register('outbox-relay', () => this.stop());
    readiness.register('outbox-relay', () => !this.loop.isStopped);
  }

  /** Writes a contract-checked message into the transaction `tx`, with the current context's headers. */
  stage<T extends TopicSpec>(tx: OutboxWriter, topic: T, value: ValueOf<T>): Promise<void> {
    return this.stageMany(tx, topic, [value]);
  }

  /** Several messages of one topic in one insert (published in the array's order), under one span. */
  async stageMany<T extends TopicSpec>(tx: OutboxWriter, topic: T, values: readonly ValueOf<T>[]): Promise<void> {
    if (values.length === 0) return;
    this.expectCommit();
    // The rows keep the trace context of the staging span, so the consumer's span continues
    // this trace however late the relay sends them.
    await this.publisher.typed.inPublishSpan(
      topic.name,
      values.length,
      async () => {
        await enqueueOutboxMany(
          tx,
          values.map((value) => {
            const message = this.publisher.typed.toKafkaMessage(topic, value);
            return { topic: topic.name, key: String(message.key), value: JSON.parse(String(message.value)) as never, headers: message.headers as Record<string, string> };
          }),
        );
      },
      'outbox',
    );
  }

  onApplicationBootstrap(): void {
    this.loop.start();
  }

  /** A row was staged: look for it soon even if its caller never kicks after the commit. */
  private expectCommit(): void {
    this.soonUntil = Date.now() + SOON_WINDOW_MS;
    this.loop.wakeWithin(SOON_POLL_MS);
  }

  /** Publish now (call after committing a transaction that staged messages). */
  kick(): void {
    this.loop.kick();
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    // Publish what is already committed before the producer disconnects.
    await this.publishBatch().catch(() => undefined);
  }

  private async drain(): Promise<void> {
    try {
      // The messages' spans were made when they were staged (their rows carry the trace context).
      while (!this.loop.isStopped && (await untraced(() => this.publishBatch())) === BATCH);
    } catch (error) {
      this.logger.warn({ err: error }, 'outbox relay pass failed; will retry');
    }
  }

  private async publishBatch(): Promise<number> {
    return this.prisma.$transaction(async (tx) => {
      const rows = await tx.$queryRaw<OutboxRow[]>`
        SELECT id, topic, key, value, headers FROM outbox_messages
        ORDER BY id LIMIT ${BATCH} FOR UPDATE SKIP LOCKED`;
      if (rows.length === 0) return 0;
      const byTopic = new Map<string, OutboxRow[]>();
      for (const row of rows) {
        const group = byTopic.get(row.topic);
        if (group) group.push(row);
        else byTopic.set(row.topic, [row]);
      }
      // every topic at once: the producer sends them in one request
      await Promise.all(
        [...byTopic].map(([topic, group]) => this.publisher.typed.sendRaw(topic, group.map((row) => ({ key: row.key, value: JSON.stringify(row.value), headers: row.headers })))),
      );
      // sent: gone with the commit (a crash before it sends them again: at least once)
      await tx.$executeRaw`DELETE FROM outbox_messages WHERE id = ANY(${rows.map((r) => r.id)}::bigint[])`;
      return rows.length;
    });
  }
}
