import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type DispatcherQueryRequested, type QueryResponded } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { KafkaConsumer } from '@jobs/service-kit';
import { DeliveryWorker } from '../deliveries/delivery-worker.js';
import { ListEventsUseCase } from './list-events.usecase.js';
import { QueryFailure } from './query-failure.js';
import { ReplayEventUseCase } from './replay-event.usecase.js';

/** GET /events and POST /webhooks/replay, asked by the gateway; answered on query.responded. */
@KafkaConsumer()
export class DispatcherQueriesConsumer {
  constructor(
    private readonly listEvents: ListEventsUseCase,
    private readonly replayEvent: ReplayEventUseCase,
    private readonly worker: DeliveryWorker,
    private readonly publisher: KafkaPublisher,
  ) {}

  @EventPattern(Topics.DispatcherQueryRequested.name)
  async onQuery(@Payload() message: DispatcherQueryRequested.Value): Promise<void> {
    const { query } = message;
    let result: QueryResponded.QueryResult;
    try {
      if (query.kind === 'events.list') {
        result = { kind: 'events.list', page: await this.listEvents.execute(message.account_id, query) };
      } else {
        result = { kind: 'webhook.replay', replay: await this.replayEvent.execute(message.account_id, message.query_id, query.event_id) };
        this.worker.kick();
      }
    } catch (error) {
      if (!(error instanceof QueryFailure)) throw error;
      await this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: message.query_id, outcome: 'error', error: error.toFailure() });
      return;
    }
    await this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: message.query_id, outcome: 'ok', result });
  }
}
