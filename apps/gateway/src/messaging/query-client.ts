import { Injectable } from '@nestjs/common';
import { EventPattern, Payload } from '@nestjs/microservices';
import { KafkaConsumer } from '@jobs/service-kit';
import {
  Topics,
  type BillingQueryRequested,
  type DedupeQueryRequested,
  type DispatcherQueryRequested,
  type OrchestratorQueryRequested,
  type QueryResponded,
} from '@jobs/contracts';

type QueryResult = QueryResponded.QueryResult;
import { KafkaPublisher } from '@jobs/nest-kafka';
import { ApiError } from '../http/api-error.js';
import { answerBy } from './answer-by.js';
import { PendingReplies, ReplyTimeout } from './pending-replies.js';

/** How long the gateway waits for an owning service to answer a query. */
const QUERY_TIMEOUT_MS = 10_000;

type ResultOf<K extends QueryResult['kind']> = Extract<QueryResult, { kind: K }>;

/**
 * Asks the service that owns some data (billing: credits and ledger; dedupe: canonical jobs)
 * over Kafka and waits for its answer; an error answer becomes the public error.
 */
@Injectable()
export class QueryClient {
  readonly replies = new PendingReplies<QueryResponded.Value>();

  constructor(private readonly publisher: KafkaPublisher) {}

  askBilling<K extends BillingQueryRequested.Value['query']['kind']>(
    value: BillingQueryRequested.Value & { query: { kind: K } },
  ): Promise<ResultOf<K>> {
    const by = answerBy(Date.now() + QUERY_TIMEOUT_MS);
    return this.ask(value.query_id, value.query.kind, () =>
      this.publisher.publish(Topics.BillingQueryRequested, { ...value, answer_by: by }),
    ) as Promise<ResultOf<K>>;
  }

  askDedupe<K extends DedupeQueryRequested.Value['query']['kind']>(
    value: DedupeQueryRequested.Value & { query: { kind: K } },
  ): Promise<ResultOf<K>> {
    return this.ask(value.query_id, value.query.kind, () =>
      this.publisher.publish(Topics.DedupeQueryRequested, value),
    ) as Promise<ResultOf<K>>;
  }

  askOrchestrator<K extends OrchestratorQueryRequested.Value['query']['kind']>(
    value: OrchestratorQueryRequested.Value & { query: { kind: K } },
  ): Promise<ResultOf<K>> {
    const by = answerBy(Date.now() + QUERY_TIMEOUT_MS);
    return this.ask(value.query_id, value.query.kind, () =>
      this.publisher.publish(Topics.OrchestratorQueryRequested, { ...value, answer_by: by }),
    ) as Promise<ResultOf<K>>;
  }

  askDispatcher<K extends DispatcherQueryRequested.Value['query']['kind']>(
    value: DispatcherQueryRequested.Value & { query: { kind: K } },
  ): Promise<ResultOf<K>> {
    return this.ask(value.query_id, value.query.kind, () =>
      this.publisher.publish(Topics.DispatcherQueryRequested, value),
    ) as Promise<ResultOf<K>>;
  }

  private async ask(queryId: string, kind: QueryResult['kind'], publish: () => Promise<void>): Promise<QueryResult> {
    // A request asks its owners one after another under its one id (a job read from dedupe, then
    // its charge from billing), and an owner that answered, died before committing and answered
    // again sends a late copy of its answer meanwhile: only this question's kind of answer counts.
    const answer = this.replies.wait(
      queryId,
      QUERY_TIMEOUT_MS,
      (reply) => reply.outcome !== 'ok' || !reply.result || reply.result.kind === kind,
    );
    try {
      await publish();
    } catch (error) {
      this.replies.cancel(queryId);
      throw error;
    }
    let reply: QueryResponded.Value;
    try {
      reply = await answer;
    } catch (error) {
      if (error instanceof ReplyTimeout)
        throw new ApiError('internal_error', 'The request did not complete in time. Retry it.');
      throw error;
    }
    if (reply.outcome === 'error' || !reply.result) {
      const failure = reply.error ?? { code: 'internal_error' as const, message: 'The request failed.' };
      const { code, message, ...extras } = failure;
      // an owner refuses more work than an account may have at once (its unfinished async
      // searches): a place frees up when one finishes, which no owner can time, so a short hint
      const headers = code === 'rate_limited' ? { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) } : undefined;
      throw new ApiError(code, message, extras, headers);
    }
    if (reply.result.kind !== kind) throw new ApiError('internal_error', 'Unexpected answer.');
    return reply.result;
  }
}

/** `Retry-After` of a query refused as too much at once: about the time an async search's chunk takes. */
export const BUSY_RETRY_AFTER_SECONDS = 10;

/** Every answer to a query reaches this replica; the waiting request, if here, is settled. */
@KafkaConsumer()
export class QueryRepliesConsumer {
  constructor(private readonly client: QueryClient) {}

  @EventPattern(Topics.QueryResponded.name)
  onQueryResponded(@Payload() reply: QueryResponded.Value): void {
    this.client.replies.settle(reply.query_id, reply);
  }
}
