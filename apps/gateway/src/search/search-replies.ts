import { Injectable } from '@nestjs/common';
import type { SearchPageCharged, SearchPageGathered, SearchResponded } from '@jobs/contracts';
import { PendingReplies } from '../messaging/pending-replies.js';
import { joinSearchAnswer } from './search-answer.js';

interface Halves {
  page?: SearchPageGathered.Value;
  charged?: SearchPageCharged.Value;
}

/**
 * Sync searches answered through Kafka: the request registers before it publishes, the reply
 * listener settles it by search id (see PendingReplies). A charged page comes in two halves, the
 * page from the orchestrator and billing's outcome, in either order: the first is held (only
 * for a search this replica waits for) until the second joins it.
 */
@Injectable()
export class SearchReplies extends PendingReplies<SearchResponded.Value> {
  private readonly halves = new Map<string, Halves>();

  /** A final answer: a dry run's estimate or a failure. */
  settleReply(reply: SearchResponded.Value): boolean {
    return this.settle(reply.search_id, reply);
  }

  settlePage(page: SearchPageGathered.Value): boolean {
    return this.join(page.search_id, { page });
  }

  settleCharge(charged: SearchPageCharged.Value): boolean {
    return this.join(charged.search_id, { charged });
  }

  private join(searchId: string, half: Halves): boolean {
    if (!this.isWaiting(searchId)) return false;
    const held = { ...this.halves.get(searchId), ...half };
    const answer = held.charged ? joinSearchAnswer(held.charged, held.page) : null;
    if (answer) return this.settle(searchId, answer);
    this.halves.set(searchId, held);
    return false;
  }

  protected override forget(searchId: string): void {
    this.halves.delete(searchId);
  }
}
