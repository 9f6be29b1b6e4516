import { Injectable } from '@nestjs/common';
import { Topics, type QueryResponded, type SearchFailure } from '@jobs/contracts';
import { KafkaPublisher } from './kafka-publisher.js';

/** A query that cannot be answered for a reason the caller must hear (becomes an error answer). */
export class QueryFailure extends Error {
  constructor(
    readonly code: SearchFailure['code'],
    message: string,
    readonly extras: Omit<SearchFailure, 'code' | 'message'> = {},
  ) {
    super(message);
    this.name = 'QueryFailure';
  }

  toFailure(): SearchFailure {
    return { code: this.code, message: this.message, ...this.extras };
  }
}

/**
 * Answers a `*.query.requested` on `query.responded`, the one way every owner does it: the
 * result, or the `QueryFailure` the caller must hear as an error answer. Any other error is
 * thrown to the consumer, which retries it (transient) or dead-letters it (poison).
 */
@Injectable()
export class QueryAnswers {
  constructor(private readonly publisher: KafkaPublisher) {}

  async answer(queryId: string, run: () => Promise<QueryResponded.QueryResult>): Promise<void> {
    let result: QueryResponded.QueryResult;
    try {
      result = await run();
    } catch (error) {
      if (!(error instanceof QueryFailure)) throw error;
      await this.publisher.publish(Topics.QueryResponded, {
        v: 1,
        query_id: queryId,
        outcome: 'error',
        error: error.toFailure(),
      });
      return;
    }
    await this.publisher.publish(Topics.QueryResponded, { v: 1, query_id: queryId, outcome: 'ok', result });
  }
}
