import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type RefreshRecordsFetched } from '@jobs/contracts';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';

/** Live work this recent still holds refresh parts back (a search's next provider batch is usually that close). */
export const LIVE_QUIET_MS = 250;
/** The longest a refresh part waits for live work: refresh slows down under live load, never stops. */
export const REFRESH_YIELD_MAX_MS = 2_000;

@KafkaConsumer()
export class RefreshRecordsConsumer {
  constructor(
    private readonly mergeRefresh: MergeRefreshUseCase,
    private readonly gate: LiveWorkGate,
  ) {}

  /** A round's part. */
  @EventPattern(Topics.RefreshRecordsFetched.name)
  onRoundRecordsFetched(@Payload() message: RefreshRecordsFetched.Value): Promise<void> {
    return this.merge(message);
  }

  /** A pass's part. */
  @EventPattern(Topics.RefreshPassRecordsFetched.name)
  onPassRecordsFetched(@Payload() message: RefreshRecordsFetched.Value): Promise<void> {
    return this.merge(message);
  }

  private async merge(message: RefreshRecordsFetched.Value): Promise<void> {
    await this.gate.yieldToLive(REFRESH_YIELD_MAX_MS);
    return this.mergeRefresh.execute(message);
  }
}
