import { Controller } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type SearchResponded } from '@jobs/contracts';
import { SearchReplies } from './search-replies.js';

@Controller()
export class SearchRepliesConsumer {
  constructor(private readonly replies: SearchReplies) {}

  @EventPattern(Topics.SearchResponded.name)
  onSearchResponded(@Payload() reply: SearchResponded.Value): void {
    this.replies.settle(reply);
  }
}
