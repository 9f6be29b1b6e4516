import { Injectable } from '@nestjs/common';
import type { SearchRequested } from '@jobs/contracts';
import { SearchCursorCodec } from '@jobs/cursors';
import { hasMore, nextWaveWithMore, planWaterfall } from '@jobs/waterfall';
import { FanOutUseCase } from './fan-out.usecase.js';
import { requestFingerprint, ResultSetStore } from './result-sets.store.js';
import { SearchAnswers } from './search-answers.js';

/**
 * A page after the first: served from the search's stored result set, from where the previous
 * page really ended (billing minted the cursor after the last job it returned, see
 * SearchAnswers), so pages never overlap or skip, with or without `max_credits`; billed
 * like any search (new unique jobs on this page only). A page that reaches past the set's end
 * while a provider has more reads further first (the earliest of the plan's waves that has more,
 * each provider from where it stopped: its page cursor, the store's keyset), and the set grows:
 * following `next_cursor` yields every match once. A page served from the set reports the set's
 * providers (every one asked for it so far) and merged no records itself.
 */
@Injectable()
export class NextPageUseCase {
  constructor(
    private readonly resultSets: ResultSetStore,
    private readonly answers: SearchAnswers,
    private readonly fanOut: FanOutUseCase,
    private readonly cursors: SearchCursorCodec,
  ) {}

  async execute(message: SearchRequested.Value, rawCursor: string): Promise<void> {
    const started = Date.now();
    const cursor = this.cursors.read(message.account_id, rawCursor);
    if (!cursor)
      return this.answers.refuse(
        message,
        'This cursor was not issued for this account. Send a next_cursor exactly as received.',
      );
    if (cursor.fingerprint !== requestFingerprint(message.account_id, message.request)) {
      return this.answers.refuse(
        message,
        'Send the same filters, waterfall and limit on every page of a search (only waterfall.max_credits may change).',
      );
    }
    const set = await this.resultSets.load(cursor.set);
    if (!set) return this.answers.refuse(message, 'This cursor has expired. Start the search again without a cursor.');
    // The set's own fingerprint names the account that ran it: a cursor pointing at another
    // account's set is refused even if it was signed (a leaked CURSOR_SECRET reads no one else's jobs).
    if (set.fingerprint !== cursor.fingerprint)
      return this.answers.refuse(
        message,
        'This cursor was not issued for this account. Send a next_cursor exactly as received.',
      );
    const { limit } = message.request;
    const positions = set.positions ?? {};
    const plan = planWaterfall(message.request, message.providers_enabled);
    const further = nextWaveWithMore(plan, positions);
    if (cursor.offset + limit > set.matching.length && further.length > 0) {
      // the page reaches past the set: read further from every provider that has more, then answer
      await this.fanOut.firstWave({
        request: message,
        plan: { ...plan, providers: further, waves: [further] },
        wave: 0,
        startedAt: started,
        from: positions,
        extension: { set: cursor.set, offset: cursor.offset, fingerprint: cursor.fingerprint, round: 0 },
      });
      return;
    }
    const data = set.matching.slice(cursor.offset, cursor.offset + limit);
    const continuation = {
      set: cursor.set,
      fingerprint: cursor.fingerprint,
      page_start: cursor.offset,
      set_size: set.matching.length,
      more: hasMore(positions),
    };
    await this.answers.publishPage(
      message,
      data,
      { ...set.metadata, duplicates_merged: 0, latency_ms: Date.now() - started },
      set.creditedTo,
      continuation,
    );
  }
}
