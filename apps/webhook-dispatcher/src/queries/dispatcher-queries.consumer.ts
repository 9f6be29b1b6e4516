import { EventPattern, Payload } from '@nestjs/microservices';
import { Topics, type DispatcherQueryRequested } from '@jobs/contracts';
import { QueryAnswers } from '@jobs/nest-kafka';
import { KafkaConsumer } from '@jobs/service-kit';
import { DeliveryWorker } from '../deliveries/delivery-worker.js';
import { EndpointSecretsUseCase } from './endpoint-secrets.usecase.js';
import { ListEventsUseCase } from './list-events.usecase.js';
import { ReplayEventUseCase } from './replay-event.usecase.js';

/** GET /events, POST /webhooks/replay and endpoint secrets, asked by the gateway; answered on query.responded. */
@KafkaConsumer()
export class DispatcherQueriesConsumer {
  constructor(
    private readonly listEvents: ListEventsUseCase,
    private readonly replayEvent: ReplayEventUseCase,
    private readonly endpointSecrets: EndpointSecretsUseCase,
    private readonly worker: DeliveryWorker,
    private readonly answers: QueryAnswers,
  ) {}

  @EventPattern(Topics.DispatcherQueryRequested.name)
  async onQuery(@Payload() message: DispatcherQueryRequested.Value): Promise<void> {
    const { query } = message;
    await this.answers.answer(message.query_id, async () => {
      // Each key mode is its own world: a test key reads and replays test events only, a live key live ones.
      const owner = { accountId: message.account_id, mode: message.mode };
      switch (query.kind) {
        case 'events.list':
          return { kind: 'events.list', page: await this.listEvents.execute(owner, query) };
        case 'webhook.replay': {
          const replay = await this.replayEvent.execute(owner, query.replay_id ?? message.query_id, query.event_id);
          this.worker.kick();
          return { kind: 'webhook.replay', replay };
        }
        case 'webhook_secret.current':
          return this.endpointSecrets.current({ ...owner, url: query.url });
        case 'webhook_secret.rotate':
          return this.endpointSecrets.rotate(
            { ...owner, url: query.url },
            query.previous_expires_in_seconds,
            query.rotation_id ?? message.query_id,
          );
      }
    });
  }
}
