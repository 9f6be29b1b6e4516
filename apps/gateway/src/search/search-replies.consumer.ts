import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type SearchPageCharged, type SearchPageGathered, type SearchResponded } from '@jobs/contracts';
import { SearchReplies } from './search-replies.js';

@KafkaConsumer()
export class SearchRepliesConsumer {
  constructor(private readonly replies: SearchReplies) {}

  @EventPattern(Topics.SearchResponded.name)
  onSearchResponded(@Payload() reply: SearchResponded.Value): void {
    this.replies.settleReply(reply);
  }

  @EventPattern(Topics.SearchPageGathered.name)
  onPageGathered(@Payload() page: SearchPageGathered.Value): void {
    this.replies.settlePage(page);
  }

  @EventPattern(Topics.SearchPageCharged.name)
  onPageCharged(@Payload() charged: SearchPageCharged.Value): void {
    this.replies.settleCharge(charged);
  }
}
