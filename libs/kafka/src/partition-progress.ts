/**
 * The offsets of one partition taken by a detached member and not yet committed: the committable
 * offset is the lowest one still running (or one past the highest done when none runs).
 */
export class PartitionProgress {
  private readonly running = new Set<bigint>();
  private highestDone: bigint | undefined;
  private committed: bigint | undefined;

  start(offset: string): void {
    const at = BigInt(offset);
    this.running.add(at);
    // the group's position is at most the first offset fetched: committing it again says nothing
    if (this.committed === undefined) this.committed = at;
  }

  finish(offset: string): void {
    const done = BigInt(offset);
    this.running.delete(done);
    if (this.highestDone === undefined || done > this.highestDone) this.highestDone = done;
  }

  /** The next offset to commit (Kafka's "next to read"), when it moved since the last commit. */
  commitable(): string | undefined {
    let next: bigint | undefined;
    if (this.running.size > 0) {
      let lowest: bigint | undefined;
      for (const offset of this.running) if (lowest === undefined || offset < lowest) lowest = offset;
      next = lowest;
    } else if (this.highestDone !== undefined) next = this.highestDone + 1n;
    if (next === undefined || (this.committed !== undefined && next <= this.committed)) return undefined;
    return String(next);
  }

  committedAt(offset: string): void {
    const at = BigInt(offset);
    if (this.committed === undefined || at > this.committed) this.committed = at;
  }

  get idle(): boolean {
    return this.running.size === 0;
  }
}
