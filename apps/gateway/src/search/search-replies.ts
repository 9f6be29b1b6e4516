import { Injectable } from '@nestjs/common';
import type { SearchResponded } from '@jobs/contracts';

interface Waiter {
  resolve: (reply: SearchResponded.Value) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

export class SearchReplyTimeout extends Error {
  constructor(readonly searchId: string) {
    super(`no answer for search ${searchId} in time`);
  }
}

/**
 * Sync searches answered through Kafka: the request registers before it publishes, and the
 * reply listener settles it. Every gateway replica listens to every reply (its own consumer
 * group) and settles only the searches it is waiting for.
 */
@Injectable()
export class SearchReplies {
  private readonly waiters = new Map<string, Waiter>();

  wait(searchId: string, timeoutMs: number): Promise<SearchResponded.Value> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(searchId);
        reject(new SearchReplyTimeout(searchId));
      }, timeoutMs);
      this.waiters.set(searchId, { resolve, reject, timer });
    });
  }

  cancel(searchId: string): void {
    const waiter = this.waiters.get(searchId);
    if (!waiter) return;
    clearTimeout(waiter.timer);
    this.waiters.delete(searchId);
  }

  settle(reply: SearchResponded.Value): boolean {
    const waiter = this.waiters.get(reply.search_id);
    if (!waiter) return false;
    clearTimeout(waiter.timer);
    this.waiters.delete(reply.search_id);
    waiter.resolve(reply);
    return true;
  }

  get pending(): number {
    return this.waiters.size;
  }
}
