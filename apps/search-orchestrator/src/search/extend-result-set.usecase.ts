import { Injectable } from '@nestjs/common';
import {
  grownSetMetadata,
  hasMore,
  nextPositions,
  nextWaveWithMore,
  planWaterfall,
  type ProviderBatch,
} from '@jobs/waterfall';
import { FanOutUseCase } from './fan-out.usecase.js';
import { GatheredResult } from './gathered-result.js';
import { ResultSetStore, type ResultSet } from './result-sets.store.js';
import { SearchAnswers } from './search-answers.js';
import { SearchMetrics } from './search-metrics.js';
import type { SearchState } from './search-state.store.js';

/** Rounds of reads one page may take beyond its result set (until it is full or no provider has more). */
const MAX_EXTENSION_ROUNDS = 12;
/** A round is not started this close to the request's deadline: the page is answered with what there is. */
const EXTENSION_MARGIN_MS = 1_000;

/**
 * A round of reads beyond a stored result set is in (a later page reached past the set's end):
 * its new matching jobs are appended to the set (each job once), the providers' positions move
 * on, its providers join the set's metadata, and the page is answered from its offset. A page not
 * full yet while some provider still has more reads again (the earliest of the plan's waves that
 * has more), within the request's deadline. Callers must have claimed the completion.
 */
@Injectable()
export class ExtendResultSetUseCase {
  private readonly metrics = new SearchMetrics();

  constructor(
    private readonly gathered: GatheredResult,
    private readonly resultSets: ResultSetStore,
    private readonly answers: SearchAnswers,
    private readonly fanOut: FanOutUseCase,
  ) {}

  async execute(state: SearchState, gathered?: ProviderBatch[]): Promise<void> {
    const extension = state.extension!;
    const { request } = state.request;
    const set = await this.resultSets.load(extension.set);
    if (!set)
      return this.answers.refuse(state.request, 'This cursor has expired. Start the search again without a cursor.');
    const batches = await this.gathered.batches(state, gathered);
    const round = this.gathered.of(state, batches);
    const known = new Set(set.matching.map((job) => job.id));
    const fresh = round.matching.filter((job) => !known.has(job.id));
    const plan = planWaterfall(request, state.request.providers_enabled);
    const grown: ResultSet = {
      ...set,
      metadata: grownSetMetadata(set.metadata, round.metadata, plan.providers),
      matching: [...set.matching, ...fresh],
      creditedTo: { ...round.creditedTo, ...set.creditedTo },
      positions: {
        ...set.positions,
        ...nextPositions(state.plan.providers, state.plan.providers, batches, state.from ?? {}),
      },
    };
    await this.resultSets.grow(extension.set, grown, fresh, extension.round);
    const more = hasMore(grown.positions ?? {});
    const askAgain = nextWaveWithMore(plan, grown.positions ?? {});
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
    await this.answers.publishPage(
      state.request,
      grown.matching.slice(extension.offset, extension.offset + request.limit),
      grown.metadata,
      grown.creditedTo,
      continuation,
    );
    this.metrics.searchAnswered(request.waterfall.strategy, grown.metadata.status);
  }
}
