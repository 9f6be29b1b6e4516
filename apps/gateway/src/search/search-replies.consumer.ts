import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type SearchResponded } from '@jobs/contracts';
import { SearchReplies } from './search-replies.js';

@KafkaConsumer()
export class SearchRepliesConsumer {
  constructor(private readonly replies: SearchReplies) {}

  @EventPattern(Topics.SearchResponded.name)
  onSearchResponded(@Payload() reply: SearchResponded.Value): void {
    this.replies.settleReply(reply);
  }
}
