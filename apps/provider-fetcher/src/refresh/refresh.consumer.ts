import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type RefreshFetchRequested } from '@jobs/contracts';
import { FetchRefreshUseCase } from './fetch-refresh.usecase.js';

@KafkaConsumer()
export class RefreshConsumer {
  constructor(private readonly fetchRefresh: FetchRefreshUseCase) {}

  /** A round's sweep. */
  @EventPattern(Topics.RefreshFetchRequested.name)
  onRoundSweep(@Payload() message: RefreshFetchRequested.Value): Promise<void> {
    return this.fetchRefresh.execute(message);
  }

  /** A pass's sweep: the same reading, in a group of its own (see FetcherModule). */
  @EventPattern(Topics.RefreshPassFetchRequested.name)
  onPassSweep(@Payload() message: RefreshFetchRequested.Value): Promise<void> {
    return this.fetchRefresh.execute(message);
  }

  /** A board sweep of the own crawler's pass, in a group of its own (see FetcherModule). */
  @EventPattern(Topics.RefreshBoardFetchRequested.name)
  onBoardSweep(@Payload() message: RefreshFetchRequested.Value): Promise<void> {
    return this.fetchRefresh.execute(message);
  }
}
