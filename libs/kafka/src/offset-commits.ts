import type { Consumer } from 'kafkajs';
import type { Logger } from '@jobs/observability';
import type { PartitionProgress } from './partition-progress.js';

/**
 * How long a handled message's offset waits to go out with the offsets handled after it: one
 * OffsetCommit per member per linger, not one per message (kafkajs commits after every batch,
 * whatever autoCommitInterval says, and at a few messages a batch that is a commit per message:
 * a request and an append to __consumer_offsets each, several per sync search). The price is
 * the at-least-once window: a member killed outright redelivers what it handled in its last
 * linger (handlers are idempotent for exactly that window already); a stop, a rebalance or a
 * failing handler sends what waits first.
 */
export const COMMIT_LINGER_MS = 250;

export interface WaitingCommit {
  topic: string;
  partition: number;
  offset: string;
  /** The detached partition's progress, told once the commit is through. */
  progress?: PartitionProgress;
}

export interface OffsetCommitsSettings {
  /** How long an offset may wait for the ones after it (COMMIT_LINGER_MS). */
  lingerMs: number;
  logger: Logger;
  /** False once the member stops: an offset queued then goes out at once. */
  running: () => boolean;
}

/**
 * A member's offset commits, lingered: the latest offset per partition waits for the next
 * request, and one request is out at a time.
 */
export class OffsetCommits {
  private readonly waiting = new Map<string, WaitingCommit>();
  private committing: Promise<void> | undefined;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly consumer: Pick<Consumer, 'commitOffsets'>,
    private readonly settings: OffsetCommitsSettings,
  ) {}

  /**
   * Puts an offset (Kafka's "next to read") in the next commit request, which goes `lingerMs`
   * after the first offset waiting for it; while the member stops, at once (and the promise is
   * that request's answer).
   */
  queue(commit: WaitingCommit): Promise<void> {
    this.waiting.set(`${commit.topic}|${commit.partition}`, commit);
    if (!this.settings.running()) return this.flush();
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.settings.lingerMs);
      this.timer.unref();
    }
    return Promise.resolve();
  }

  /**
   * Sends the offsets waiting now. One commit request at a time per member: offsets queued while
   * one is out wait for the next (the latest per partition).
   */
  async flush(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    while (this.committing) await this.committing;
    if (this.waiting.size === 0) return;
    const batch = [...this.waiting.values()];
    this.waiting.clear();
    const offsets = batch.map(({ topic, partition, offset }) => ({ topic, partition, offset }));
    this.committing = this.consumer
      .commitOffsets(offsets)
      .then(
        () => {
          for (const { offset, progress } of batch) progress?.committedAt(offset);
        },
        (error: unknown) => {
          // a rebalance took a partition: its new owner redelivers what this commit would have covered
          this.settings.logger.warn(
            { commits: offsets, err: error },
            'offset commit failed; the messages after the last commit may come again',
          );
        },
      )
      .finally(() => {
        this.committing = undefined;
      });
    await this.committing;
  }
}
