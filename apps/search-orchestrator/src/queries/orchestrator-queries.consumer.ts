import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import { Topics, type OrchestratorQueryRequested, type QueryResponded } from '@jobs/contracts';
import { askerGaveUp } from '@jobs/db';
import { QueryAnswers, QueryFailure } from '@jobs/nest-kafka';
import { ManageWatchesUseCase } from '../watches/manage-watches.usecase.js';
import { CreateAsyncSearchUseCase } from '../async-search/create-async-search.usecase.js';
import { ReadAsyncSearchUseCase } from '../async-search/read-async-search.usecase.js';
import { WebhookUrlUsageUseCase } from '../webhook-urls/webhook-url-usage.usecase.js';

type Message = OrchestratorQueryRequested.Value;

/**
 * Commands and reads of what the orchestrator owns (async searches, watches, and the webhook
 * URLs they deliver to), dispatched on
 * `query.kind`; the answer goes to the waiting gateway on `query.responded`. A failure the
 * caller must hear is an error answer; anything else is retried by kafkajs.
 */
@KafkaConsumer()
export class OrchestratorQueriesConsumer {
  constructor(
    private readonly watches: ManageWatchesUseCase,
    private readonly createAsyncSearch: CreateAsyncSearchUseCase,
    private readonly readAsyncSearch: ReadAsyncSearchUseCase,
    private readonly webhookUrls: WebhookUrlUsageUseCase,
    private readonly answers: QueryAnswers,
  ) {}

  @EventPattern(Topics.OrchestratorQueryRequested.name)
  onQuery(@Payload() message: Message): Promise<void> {
    return this.answers.answer(message.query_id, () => this.answer(message));
  }

  private async answer(message: Message): Promise<QueryResponded.QueryResult> {
    const { query } = message;
    // the gateway answered its caller internal_error by now: a create made now would be made twice
    // (the retry makes its own), or once for a caller who holds no id for it
    if ((query.kind === 'async.create' || query.kind === 'watch.create') && askerGaveUp(message.answer_by))
      throw new QueryFailure('internal_error', 'The request expired before it was taken; nothing was made.');
    switch (query.kind) {
      case 'watch.create':
        return { kind: 'watch.create', watch: await this.watches.create(message, query) };
      case 'watch.list':
        return { kind: 'watch.list', page: await this.watches.list(message, query) };
      case 'watch.delete':
        await this.watches.delete(message, query);
        return { kind: 'watch.delete', deleted: true };
      case 'watch.set_status':
        return { kind: 'watch.set_status', watch: await this.watches.setStatus(message, query) };
      case 'async.create':
        return { kind: 'async.create', search: await this.createAsyncSearch.execute(message, query) };
      case 'async.get':
        return { kind: 'async.get', search: await this.readAsyncSearch.execute(message, query) };
      case 'webhook_urls.list':
        return { kind: 'webhook_urls.list', ...(await this.webhookUrls.list(message, query)) };
    }
  }
}
