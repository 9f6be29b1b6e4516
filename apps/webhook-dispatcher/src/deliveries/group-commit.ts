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
   */
  constructor(
    private readonly write: (items: I[]) => Promise<Array<O | Error>>,
    private readonly maxBatch: number,
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
        const batch = this.queue.splice(0, this.maxBatch);
        try {
          const results = await this.write(batch.map((entry) => entry.item));
          batch.forEach((entry, i) => {
            const result = results[i];
            if (result instanceof Error) entry.reject(result);
            else entry.resolve(result as O);
          });
        } catch (error) {
          for (const entry of batch) entry.reject(error);
        }
      }
    } finally {
      this.writing = undefined;
    }
  }
}
