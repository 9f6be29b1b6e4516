import { Injectable } from '@nestjs/common';
import type { SearchResponded } from '@jobs/contracts';
import { PendingReplies } from '../messaging/pending-replies.js';

/**
 * Sync searches answered through Kafka: the request registers before it publishes, the reply
 * listener settles it by search id (see PendingReplies).
 */
@Injectable()
export class SearchReplies extends PendingReplies<SearchResponded.Value> {
  settleReply(reply: SearchResponded.Value): boolean {
    return this.settle(reply.search_id, reply);
  }
}
