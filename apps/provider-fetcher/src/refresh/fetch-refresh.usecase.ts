import { Inject, Injectable } from '@nestjs/common';
import {
  isWindowSweep,
  refreshTopicsOf,
  type FetchOutcome,
  type NormalizedProviderRecord,
  type RefreshFetchRequested,
} from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { Logger } from '@jobs/observability';
import type { PagePosition, ResumablePaging } from '@jobs/provider-adapters';
import { LOGGER } from '@jobs/service-kit';
import { ProviderCalls } from '../calls/provider-calls.js';
import { ReadBoardUseCase } from './read-board.usecase.js';
import { recordParts } from './record-parts.js';
import { SweepPacer } from './sweep-pacer.js';

/** Records a call reads for one `refresh.records.fetched` part: a few pages, a short merge for dedupe. */
export const SWEEP_PART_RECORDS = 200;
/** A listing longer than this is cut (incomplete): a bound on one sweep, far above any scope here. */
export const SWEEP_MAX_RECORDS = 50_000;
/**
 * Pages a window sweep (a pass: new listings, the crawler's change feed) asks side by side where
 * the provider addresses its pages. A requested pass is what a watch's `job.opened` waits for, and
 * Provider D's day-granular `published_since` gives ~250 postings at 25 a page: ten page
 * latencies (4 s) one by one, two side by side. A round's sweeps stay one page at a time: they are
 * background re-verification, paced so that live searches keep the provider's calls.
 */
export const WINDOW_SWEEP_PARALLEL_PAGES = 8;

/**
 * One sweep of a refresh pass: reads one provider's listing for one scope to its end, part by
 * part (each call reads whole pages until `SWEEP_PART_RECORDS` are in and leaves the next page's
 * position), and hands every part to dedupe as soon as it is read. The last part says whether
 * the listing was read whole: every call answered, the last page reached, within the sweep's
 * budget, and the provider's total the same on every page (a listing that moved while it was
 * read may have shifted a posting past the reader). Only then may dedupe judge absences. A
 * `listings` sweep reads its listings by id in one call: those the provider still shows. The own
 * crawler is asked for recently closed openings too, with their reason. Each call has the
 * request's call deadline (a provider silent that long ends its sweep, incomplete), and each
 * provider's round sweeps are paced apart from every other provider's.
 */
@Injectable()
export class FetchRefreshUseCase {
  /**
   * A pass's sweep at once, a round's a few at a time, one per provider while its round is on time (see SweepPacer).
   */
  private readonly pacer = new SweepPacer();

  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
    private readonly readBoard: ReadBoardUseCase,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {}

  async execute(message: RefreshFetchRequested.Value): Promise<void> {
    // a board is one request to its own host, paced by the board reader's per-host limit, not the provider's pacer
    if (message.kind === 'board') return this.readBoard.execute(message);
    const urgent = isWindowSweep(message.kind);
    const release = await this.pacer.acquire(message.provider, { urgent, dueAt: message.due_at });
    try {
      await this.sweep(message, urgent);
    } finally {
      release();
    }
  }

  /** `windowSweep`: a pass's window (new listings, the change feed), never complete for absences. */
  private async sweep(message: RefreshFetchRequested.Value, windowSweep: boolean): Promise<void> {
    const startedAt = new Date();
    const deadlineAt = startedAt.getTime() + message.timeout_ms;
    const callTimeoutMs = message.call_timeout_ms ?? message.timeout_ms;
    // a whole listing of the own crawler comes with the openings it saw close (and why); its change feed has them
    // anyway
    const filters =
      message.provider === 'own_index' && !windowSweep
        ? { ...message.scope.filters, include_closed: true }
        : message.scope.filters;
    const context = { refresh_id: message.refresh_id, scope: message.scope.key };
    /** One part of the sweep: `complete` when it is the last and the listing was read whole. */
    const publish = ({
      part,
      final,
      outcome,
      complete,
      records,
      callStarted,
    }: {
      part: number;
      final: boolean;
      outcome: FetchOutcome;
      complete: boolean;
      records: NormalizedProviderRecord[];
      callStarted: number;
    }) =>
      this.publisher.publish(refreshTopicsOf(message.kind).records, {
        v: 1,
        refresh_id: message.refresh_id,
        kind: message.kind,
        scope: message.scope,
        provider: message.provider,
        part,
        final,
        outcome,
        complete,
        started_at: startedAt.toISOString(),
        latency_ms: Date.now() - callStarted,
        fetched_at: new Date().toISOString(),
        records,
      });

    const totals: number[] = [];
    let read = 0;
    let oversized = 0;
    let skipped = 0;
    let part = 0;
    let position: PagePosition | null = null;
    for (;;) {
      const callStarted = Date.now();
      const paging: ResumablePaging = { start: position };
      const { outcome, records } = await this.calls.call(
        message.provider,
        // The sweep's deadline is a call timeout: a partner that runs past it opens its breaker
        // for live searches too, which then answer without waiting for it.
        {
          filters,
          want: message.scope.listing_ids?.length ?? SWEEP_PART_RECORDS,
          paging,
          listingIds: message.scope.listing_ids,
          listedSince: message.listed_since,
          changedSince: message.changed_since,
          parallelPages: windowSweep ? WINDOW_SWEEP_PARALLEL_PAGES : 1,
          deadlineIsCallTimeout: true,
        },
        Math.min(deadlineAt, callStarted + callTimeoutMs),
        context,
      );
      if (outcome !== 'ok')
        return void (await publish({ part, final: true, outcome, complete: false, records: [], callStarted }));
      totals.push(...(paging.totals ?? []));
      skipped += paging.skipped ?? 0;
      read += records.length;
      position = paging.next ?? null;
      const ended = position === null;
      const cut = !ended && read >= SWEEP_MAX_RECORDS;
      const final = ended || cut;
      // a call's records in as many parts as the broker's message size needs
      const split = recordParts(records, Number.POSITIVE_INFINITY);
      oversized += split.oversized.length;
      // an item that did not map is a listing the provider still shows: judged absent, its job would close
      const complete =
        final && ended && !windowSweep && readWhole(totals, read + skipped) && oversized === 0 && skipped === 0;
      if (final && skipped > 0)
        this.logger.warn(
          { provider: message.provider, ...context, skipped },
          'sweep met listings it could not read as records: no absences judged from it',
        );
      for (const [i, slice] of split.parts.entries()) {
        const last = final && i === split.parts.length - 1;
        await publish({ part, final: last, outcome: 'ok', complete: last && complete, records: slice, callStarted });
        part += 1;
      }
      if (final) return;
    }
  }
}

/**
 * The provider's total did not move while the listing was read (page positions did not shift
 * under the reader), and the reader met as many postings as it says (`met`, records and items that
 * did not map): a listing that ended early (an empty page before its end, a page the provider
 * would not serve) left postings unread. A provider that reports no total is taken as read whole.
 */
export function readWhole(totals: readonly number[], met: number): boolean {
  return totals.every((t) => t === totals[0]) && (totals.length === 0 || met >= totals.at(-1)!);
}
