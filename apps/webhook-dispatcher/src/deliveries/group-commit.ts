/**
 * Group commit: items submitted while a write is under way wait for it and go together in the
 * next one, so a burst costs one statement per batch instead of one per item, and a lone item
 * is written at once (no timer, no added latency when quiet). Each submitter gets its own item's
 * result or error. Pure (the write is injected).
 */
export class GroupCommit<I, O> {
  private queue: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  private writing?: Promise<void>;

  /**
   * @param write writes a batch and returns one result per item, in order: a value, or an Error
   *   for that item alone; a throw fails the whole batch (every item's submitter gets it).
   * @param isOneItems whether a throw may be one item's doing (bad data, which fails the same way
   *   each time): the batch is then written again in halves, down to the item, so only that item's
   *   submitter gets the error and the others are written. Any other throw (the database away)
   *   fails the whole batch at once.
   */
  constructor(
    private readonly write: (items: I[]) => Promise<Array<O | Error>>,
    private readonly maxBatch: number,
    private readonly isOneItems: (error: unknown) => boolean = () => false,
  ) {
    if (!(Number.isInteger(maxBatch) && maxBatch > 0)) throw new RangeError('maxBatch must be a positive integer');
  }

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      // The items of one tick (a fetched Kafka batch's handlers, attempts ending together) go in one write.
      if (!this.writing)
        this.writing = new Promise<void>((done) => setImmediate(() => void this.drain().finally(done)));
    });
  }

  /** Resolves once everything submitted so far is written (or failed). */
  async flushed(): Promise<void> {
    while (this.writing) await this.writing;
  }

  private async drain(): Promise<void> {
    try {
      while (this.queue.length > 0) {
        await this.writeBatch(this.queue.splice(0, this.maxBatch));
      }
    } finally {
      this.writing = undefined;
    }
  }

  private async writeBatch(batch: GroupCommit<I, O>['queue']): Promise<void> {
    try {
      const results = await this.write(batch.map((entry) => entry.item));
      batch.forEach((entry, i) => {
        const result = results[i];
        if (result instanceof Error) entry.reject(result);
        else entry.resolve(result as O);
      });
    } catch (error) {
      if (batch.length > 1 && this.isOneItems(error)) {
        const half = Math.ceil(batch.length / 2);
        await this.writeBatch(batch.slice(0, half));
        await this.writeBatch(batch.slice(half));
        return;
      }
      for (const entry of batch) entry.reject(error);
    }
  }
}
