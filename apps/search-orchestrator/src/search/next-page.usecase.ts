import { Inject, Injectable } from '@nestjs/common';
import { SearchCursorPositionSchema, searchCursorScope, Topics, type SearchRequested } from '@jobs/contracts';
import type { CursorCodec } from '@jobs/cursors';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { CompleteSearchUseCase } from './complete-search.usecase.js';
import { requestFingerprint, ResultSetStore } from './result-sets.store.js';
import { SEARCH_CURSOR_CODEC } from './search-cursor.js';

/**
 * A page after the first: served from the search's stored result set, from where the previous
 * page really ended (billing minted the cursor after the last job it returned, see
 * CompleteSearchUseCase), so pages never overlap or skip, with or without `max_credits`; billed
 * like any search (new unique jobs on this page only).
 */
@Injectable()
export class NextPageUseCase {
  constructor(
    private readonly resultSets: ResultSetStore,
    private readonly completeSearch: CompleteSearchUseCase,
    private readonly publisher: KafkaPublisher,
    @Inject(SEARCH_CURSOR_CODEC) private readonly cursors: CursorCodec,
  ) {}

  async execute(message: SearchRequested.Value, rawCursor: string): Promise<void> {
    const started = Date.now();
    const cursor = SearchCursorPositionSchema.safeParse(this.cursors.decode<unknown>(searchCursorScope(message.account_id), rawCursor)).data;
    if (!cursor) return this.refuse(message, 'This cursor was not issued for this account. Send a next_cursor exactly as received.');
    if (cursor.fingerprint !== requestFingerprint(message.account_id, message.request)) {
      return this.refuse(message, 'Send the same filters, waterfall and limit on every page of a search.');
    }
    const set = await this.resultSets.load(cursor.set);
    if (!set) return this.refuse(message, 'This cursor has expired. Start the search again without a cursor.');
    const { limit } = message.request;
    const data = set.matching.slice(cursor.offset, cursor.offset + limit);
    const continuation = { set: cursor.set, fingerprint: cursor.fingerprint, page_start: cursor.offset, set_size: set.matching.length };
    await this.completeSearch.publishPage(message, data, { ...set.metadata, latency_ms: Date.now() - started }, continuation);
  }

  private async refuse(message: SearchRequested.Value, text: string): Promise<void> {
    await this.publisher.publish(Topics.SearchResponded, {
      v: 1,
      search_id: message.search_id,
      request_id: message.search_id,
      outcome: 'error',
      error: { code: 'invalid_request', message: text, param: 'cursor' },
      credits_charged: 0,
      credits_remaining: null,
    });
  }
}
