import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type AccountCreditsAdded, type AsyncChunkCharged, type AsyncChunkDeduplicated } from '@jobs/contracts';
import { ApplyChargeUseCase } from './apply-charge.usecase.js';
import { CollectChunkUseCase } from './collect-chunk.usecase.js';
import { ResumeSearchesUseCase } from './resume-searches.usecase.js';

/** The async search collection: chunks from dedupe, charge answers from billing, top-ups. */
@KafkaConsumer()
export class AsyncSearchConsumer {
  constructor(
    private readonly collectChunk: CollectChunkUseCase,
    private readonly applyCharge: ApplyChargeUseCase,
    private readonly resumeSearches: ResumeSearchesUseCase,
  ) {}

  @EventPattern(Topics.AsyncChunkDeduplicated.name)
  onChunkDeduplicated(@Payload() message: AsyncChunkDeduplicated.Value): Promise<void> {
    return this.collectChunk.execute(message);
  }

  @EventPattern(Topics.AsyncChunkCharged.name)
  onChunkCharged(@Payload() message: AsyncChunkCharged.Value): Promise<void> {
    return this.applyCharge.execute(message);
  }

  /** A top-up resumes the account's on_hold searches. */
  @EventPattern(Topics.AccountCreditsAdded.name)
  onCreditsAdded(@Payload() message: AccountCreditsAdded.Value): Promise<void> {
    return this.resumeSearches.forAccount(message.account_id);
  }
}
