import { Injectable } from '@nestjs/common';
import { Topics, type Job, type ProviderSlug, type SearchContinuation } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { fieldCoverage } from '@jobs/search-metadata';
import {
  assembleSearchResult,
  estimateFromCounts,
  firstPageMayContinue,
  hasMore,
  contributionsOf,
  nextPositions,
  planWaterfall,
  providersWithMore,
  type ProviderBatch,
  type SearchResult,
} from '@jobs/waterfall';
import { requestFingerprint, ResultSetStore, type ResultSet } from './result-sets.store.js';
import { FanOutUseCase } from './fan-out.usecase.js';
import { SearchMetrics } from './search-metrics.js';
import { gatheredMessagesKey, SearchStateStore, triedProviders, type SearchState } from './search-state.store.js';

/** Rounds of reads one page may take beyond its result set (until it is full or no provider has more). */
const MAX_EXTENSION_ROUNDS = 12;
/** A round is not started this close to the request's deadline: the page is answered with what there is. */
const EXTENSION_MARGIN_MS = 1_000;

/**
 * Builds the first page of a search from the batches gathered so far (a provider without a
 * batch is reported as timed out), keeps the whole result set when another page can follow,
 * and sends the page to the gateway and its job ids to billing. Callers must have claimed the
 * completion.
 *
 * Billing, not this service, mints `next_cursor`: `waterfall.max_credits` may stop the results
 * before the page ends, and only billing knows where (which jobs the account already paid for).
 * The page therefore travels with its continuation (result set, fingerprint, page start, set
 * size) and billing points the cursor right after the last job it returns, so a capped page is
 * continued from the cut: no job skipped, none repeated.
 */
@Injectable()
export class CompleteSearchUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly store: SearchStateStore,
    private readonly resultSets: ResultSetStore,
    private readonly publisher: KafkaPublisher,
    private readonly fanOut: FanOutUseCase,
  ) {}

  /** Every matching job gathered so far, in page order. */
  async result(state: SearchState, batches?: ProviderBatch[]): Promise<SearchResult> {
    const { request } = state.request;
    return assembleSearchResult({
      requestId: state.request.search_id,
      providers: triedProviders(state),
      filters: request.filters,
      strategy: request.waterfall.strategy,
      minSources: request.waterfall.min_sources,
      batches: batches ?? (await this.store.batches(state.request.search_id)),
      limit: request.limit,
      startedAt: state.startedAt,
      now: Date.now(),
    });
  }

  /** `batches`: the wave's batches when the caller has them (read once per search, they are large). */
  async execute(state: SearchState, result?: SearchResult, gathered?: ProviderBatch[]): Promise<void> {
    if (state.extension) return this.extend(state, state.extension, gathered);
    const { search_id: searchId, account_id: accountId, request } = state.request;
    const batches = gathered ?? (await this.store.batches(searchId));
    result ??= await this.result(state, batches);
    if (request.dry_run) {
      await this.answerEstimate(state, batches);
      this.metrics.searchAnswered(request.waterfall.strategy, 'estimate');
      return;
    }
    const fingerprint = requestFingerprint(accountId, request);
    // every provider of the plan: those not asked yet (a later wave) hold their first page
    const positions = nextPositions(state.plan.providers, triedProviders(state), batches, state.from ?? {});
    const more = hasMore(positions);
    let continuation: SearchContinuation | null = null;
    if (firstPageMayContinue(result.matching.length, request.limit, request.waterfall.max_credits ?? null, more)) {
      await this.resultSets.keep(searchId, { ...result, fingerprint, positions }, gatheredMessagesKey(searchId));
      continuation = { set: searchId, fingerprint, page_start: 0, set_size: result.matching.length, more };
    }
    await this.publishPage(
      state.request,
      result.matching.slice(0, request.limit),
      result.metadata,
      result.creditedTo,
      continuation,
    );
    this.metrics.searchAnswered(request.waterfall.strategy, result.metadata.status);
  }

  /**
   * A round of reads beyond a stored result set is in: its new matching jobs are appended to the
   * set (each job once), the providers' positions move on, and the page is answered from
   * `offset`. A round that brought nothing for the page while some provider still has more (its
   * records were all jobs the set had) reads again, within the request's deadline.
   */
  private async extend(
    state: SearchState,
    extension: NonNullable<SearchState['extension']>,
    gathered?: ProviderBatch[],
  ): Promise<void> {
    const { request } = state.request;
    const set = await this.resultSets.load(extension.set);
    if (!set) return this.refuse(state.request, 'This cursor has expired. Start the search again without a cursor.');
    const batches = gathered ?? (await this.store.batches(state.request.search_id));
    const round = await this.result(state, batches);
    const known = new Set(set.matching.map((job) => job.id));
    const fresh = round.matching.filter((job) => !known.has(job.id));
    const grown: ResultSet = {
      ...set,
      matching: [...set.matching, ...fresh],
      creditedTo: { ...round.creditedTo, ...set.creditedTo },
      positions: {
        ...set.positions,
        ...nextPositions(state.plan.providers, state.plan.providers, batches, state.from ?? {}),
      },
    };
    await this.resultSets.grow(extension.set, grown, fresh, extension.round);
    const more = hasMore(grown.positions ?? {});
    const askAgain = providersWithMore(state.plan.providers, grown.positions ?? {});
    if (
      grown.matching.length < extension.offset + request.limit &&
      askAgain.length > 0 &&
      extension.round < MAX_EXTENSION_ROUNDS &&
      Date.now() < state.request.deadline_at - EXTENSION_MARGIN_MS
    ) {
      // the page is not full yet: read further (twice as many per provider after a round that brought nothing new)
      const want =
        fresh.length === 0 ? Math.min(100, (extension.want ?? request.limit) * 2) : (extension.want ?? request.limit);
      await this.fanOut.firstWave({
        ...state,
        plan: { ...state.plan, providers: askAgain, waves: [askAgain] },
        wave: 0,
        from: grown.positions,
        extension: { ...extension, round: extension.round + 1, want },
      });
      return;
    }
    const continuation = {
      set: extension.set,
      fingerprint: extension.fingerprint,
      page_start: extension.offset,
      set_size: grown.matching.length,
      more,
    };
    await this.publishPage(
      state.request,
      grown.matching.slice(extension.offset, extension.offset + request.limit),
      round.metadata,
      grown.creditedTo,
      continuation,
    );
    this.metrics.searchAnswered(request.waterfall.strategy, round.metadata.status);
  }

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

  /** dry_run: the estimate goes straight back to the gateway; billing never sees it. */
  private async answerEstimate(state: SearchState, batches: ProviderBatch[]): Promise<void> {
    const { search_id: searchId, request } = state.request;
    const estimate = estimateFromCounts({
      providersPlanned: state.plan.providers,
      // a dry run asks every planned provider at once; the search itself goes wave by wave
      waves: planWaterfall(request, state.request.providers_enabled).waves,
      batches,
      filters: request.filters,
      strategy: request.waterfall.strategy,
      minSources: request.waterfall.min_sources,
      limit: request.limit,
      maxCredits: request.waterfall.max_credits ?? null,
    });
    await this.publisher.publish(Topics.SearchResponded, {
      v: 1,
      search_id: searchId,
      request_id: searchId,
      outcome: 'ok',
      estimate: { request_id: searchId, estimate },
      credits_charged: 0,
      credits_remaining: null,
    });
  }

  /**
   * Sends the page to the gateway and its job ids to billing, side by side (one produce): billing
   * charges them, mints the next cursor and tells the gateway which jobs are returned; the page's
   * weight crosses one hop, not two.
   */
  async publishPage(
    search: SearchState['request'],
    data: Job[],
    metadata: SearchResult['metadata'],
    creditedTo: SearchResult['creditedTo'],
    continuation: SearchContinuation | null,
  ): Promise<void> {
    const { search_id: searchId } = search;
    const answered = Object.keys(metadata.providers.contributions) as ProviderSlug[];
    const credited = data.map((job) => creditedTo[job.id] ?? null);
    const providers = { ...metadata.providers, contributions: contributionsOf(data, creditedTo, answered) };
    await Promise.all([
      this.publisher.publish(Topics.SearchPageGathered, {
        v: 1,
        search_id: searchId,
        request_id: searchId,
        response: {
          data,
          metadata: { ...metadata, request_id: searchId, providers, field_coverage: fieldCoverage(data) },
        },
        credited_to: credited,
      }),
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
      }),
    ]);
  }
}
