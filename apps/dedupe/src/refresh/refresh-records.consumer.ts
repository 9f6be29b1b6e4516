import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer, LiveWorkGate } from '@jobs/service-kit';
import { Topics, type RefreshRecordsFetched } from '@jobs/contracts';
import { MergeRefreshUseCase } from './merge-refresh.usecase.js';

/** Live work this recent still holds round parts back (a search's next provider batch is usually that close). */
export const LIVE_QUIET_MS = 250;
/** The longest a round's part waits for live work: re-verification slows down under live load, never stops. */
export const REFRESH_YIELD_MAX_MS = 2_000;

@KafkaConsumer()
export class RefreshRecordsConsumer {
  constructor(
    private readonly mergeRefresh: MergeRefreshUseCase,
    private readonly gate: LiveWorkGate,
  ) {}

  /** A round's part: background re-verification, which lets live searches go first. */
  @EventPattern(Topics.RefreshRecordsFetched.name)
  async onRoundRecordsFetched(@Payload() message: RefreshRecordsFetched.Value): Promise<void> {
    await this.gate.yieldToLive(REFRESH_YIELD_MAX_MS);
    return this.mergeRefresh.execute(message);
  }

  /**
   * A pass's part: what moved, which new openings and watch events wait for. Merged at once: a
   * pass is a few small parts per provider and interval, and yielding each to live work would let
   * one customer's stream of searches hold every watch's events back, seconds per part.
   */
  @EventPattern(Topics.RefreshPassRecordsFetched.name)
  onPassRecordsFetched(@Payload() message: RefreshRecordsFetched.Value): Promise<void> {
    return this.mergeRefresh.execute(message);
  }
}
