import { Injectable } from '@nestjs/common';
import { Topics, type Job, type SearchContinuation } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { SearchResult } from '@jobs/waterfall';
import type { SearchState } from './search-state.store.js';

/**
 * Description text beyond which a page is sent before its charge: a page of this much is no
 * longer sure to fit one produce request (COALESCE_MAX_BYTES, then compressed).
 */
const LARGE_PAGE_CHARS = 128 * 1024;

function descriptionChars(jobs: readonly Job[]): number {
  let chars = 0;
  for (const job of jobs) chars += job.description?.length ?? 0;
  return chars;
}

/**
 * What a sync search sends back: a page (to the gateway, and its job ids to billing) or a refusal.
 * Every page, first or later, leaves through here.
 *
 * Billing, not this service, mints `next_cursor`: `waterfall.max_credits` may stop the results
 * before the page ends, and only billing knows where (which jobs the account already paid for).
 * The page therefore travels with its continuation (result set, fingerprint, page start, set
 * size) and billing points the cursor right after the last job it returns, so a capped page is
 * continued from the cut: no job skipped, none repeated.
 */
@Injectable()
export class SearchAnswers {
  constructor(private readonly publisher: KafkaPublisher) {}

  async refuse(search: SearchState['request'], text: string): Promise<void> {
    await this.publisher.publish(Topics.SearchResponded, {
      v: 1,
      search_id: search.search_id,
      request_id: search.search_id,
      outcome: 'error',
      error: { code: 'invalid_request', message: text, param: 'cursor' },
      credits_charged: 0,
      credits_remaining: null,
    });
  }

  /**
   * Sends the page to the gateway and its job ids to billing, side by side (one produce): billing
   * charges them, mints the next cursor and tells the gateway which jobs are returned; the page's
   * weight crosses one hop, not two. A page of long descriptions goes first and alone, and its
   * charge only once it is sent: a page the broker refuses (too large even compressed) must not
   * leave a charge for jobs nobody got.
   */
  async publishPage(
    search: SearchState['request'],
    data: Job[],
    metadata: SearchResult['metadata'],
    creditedTo: SearchResult['creditedTo'],
    continuation: SearchContinuation | null,
  ): Promise<void> {
    const { search_id: searchId } = search;
    const credited = data.map((job) => creditedTo[job.id] ?? null);
    const page = () =>
      this.publisher.publish(Topics.SearchPageGathered, {
        v: 1,
        search_id: searchId,
        request_id: searchId,
        response: { data, metadata: { ...metadata, request_id: searchId } },
        credited_to: credited,
      });
    const charge = () =>
      this.publisher.publish(Topics.BillingPageChargeRequested, {
        v: 1,
        search_id: searchId,
        request_id: searchId,
        account_id: search.account_id,
        mode: search.mode,
        operation: 'POST /v1/jobs/search',
        max_credits: search.request.waterfall.max_credits ?? null,
        job_ids: data.map((job) => job.id),
        continuation,
        ...(search.answer_by ? { answer_by: search.answer_by } : {}),
      });
    if (descriptionChars(data) > LARGE_PAGE_CHARS) {
      await page(); // failing, nothing was sent: the search may be answered again
      try {
        await charge();
      } catch (error) {
        throw new AnswerPartlySent(searchId, error);
      }
      return;
    }
    const [pageSent, chargeSent] = await Promise.allSettled([page(), charge()]);
    if (pageSent.status === 'rejected' && chargeSent.status === 'rejected') throw pageSent.reason;
    // One half left: the other is sent again, or the account pays for a page it never gets (the
    // charge without its page) or waits for a charge that never comes. Billing charges a search once.
    const missing = pageSent.status === 'rejected' ? page : chargeSent.status === 'rejected' ? charge : undefined;
    if (!missing) return;
    try {
      await missing();
    } catch (error) {
      throw new AnswerPartlySent(searchId, error);
    }
  }
}

/**
 * One half of a page's answer left (the page, or its charge) and the other did not: answering
 * the search again could pair that charge with another page, so it is not answered again.
 */
export class AnswerPartlySent extends Error {
  constructor(searchId: string, cause: unknown) {
    super(`half of the answer of ${searchId} was sent`, { cause });
    this.name = 'AnswerPartlySent';
  }
}
