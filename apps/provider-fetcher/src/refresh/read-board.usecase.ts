import { Inject, Injectable } from '@nestjs/common';
import type { Counter } from '@opentelemetry/api';
import {
  BOARD_READ_IDS_MAX,
  BOARD_READ_IDS_MAX_BYTES,
  BOARD_SKIPPED_ID_MAX_CHARS,
  BOARD_SKIPPED_IDS_MAX,
  BoardAtsSchema,
  boardReadWhole,
  refreshTopicsOf,
  type BoardReadOutcome,
  type NormalizedProviderRecord,
  type RefreshFetchRequested,
} from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import { jobsMeter, type Logger } from '@jobs/observability';
import { BoardBreakers, BoardReadError, BoardReader, type BoardReadResult } from '@jobs/provider-adapters';
import { LOGGER } from '@jobs/service-kit';
import { PART_MAX_BYTES, recordParts } from './record-parts.js';

/** Records per part of a board's sweep at most, as any sweep's (a board of thousands is a few parts). */
export const BOARD_PART_RECORDS = 200;

export const BOARD_READER = Symbol('BOARD_READER');

type ReadFailure = 'provider_timeout' | 'provider_error';

/**
 * One board sweep of the own crawler's pass: one GET of the board (conditional on its last good
 * read), its openings handed to dedupe as own_index records in parts, the last part saying how
 * the read went. A board that answered unchanged sends no records: dedupe takes every listing it
 * had as seen. Items that could not be read are skipped under the ids they name (their openings
 * are still on the board); one that names none leaves the read not whole: its sweep ends
 * incomplete, so no listing is judged absent for lack of a record the reader skipped. A
 * board that fails (error status, timeout, unreadable answer, 429) sends a failed part that
 * closes nothing, and counts in that board's breaker only: while open, the board is not asked and
 * its sweep fails at once, every other board and the own crawler's feed untouched. A read that
 * spent the sweep's budget waiting for the crawler's own request slots to the host fails the
 * sweep too, but the board was never asked: its breaker does not count it.
 */
@Injectable()
export class ReadBoardUseCase {
  private readonly breakers = new BoardBreakers();
  private readonly reads: Counter;

  constructor(
    private readonly publisher: KafkaPublisher,
    @Inject(BOARD_READER) private readonly reader: BoardReader,
    @Inject(LOGGER) private readonly logger: Logger,
  ) {
    const meter = jobsMeter();
    this.reads = meter.createCounter('crawler_board_reads_total', {
      description:
        "The own crawler's board reads, by ATS and outcome (changed, unchanged, error, breaker_open, queued: " +
        'waited past the sweep budget for a request slot to its host, host_backoff: not asked while its host ' +
        'asked the crawler to wait).',
    });
    // every series from zero, so the first failed read of a process is an increase an alert sees
    for (const ats of BoardAtsSchema.options)
      for (const outcome of ['changed', 'unchanged', 'error', 'breaker_open', 'queued', 'host_backoff'])
        this.reads.add(0, { ats, outcome });
    meter
      .createObservableGauge('crawler_boards_breaker_open', {
        description: 'Boards whose breaker is open on this fetcher replica (their reads fail at once).',
      })
      .addCallback((result) => result.observe(this.breakers.openCount()));
  }

  async execute(message: RefreshFetchRequested.Value): Promise<void> {
    const board = message.scope.board!;
    const key = message.scope.key;
    const startedAt = new Date();
    const callTimeoutMs = Math.min(message.timeout_ms, message.call_timeout_ms ?? message.timeout_ms);
    // the sweep's budget holds the wait for a request slot to the host, then the board's own deadline
    const maxWaitMs = message.timeout_ms - callTimeoutMs;
    const publish = (
      part: number,
      final: boolean,
      records: NormalizedProviderRecord[],
      read?: BoardReadOutcome,
      outcome: ReadFailure | 'ok' = 'ok',
      readListingIds?: string[],
    ) =>
      this.publisher.publish(refreshTopicsOf(message.kind).records, {
        v: 1,
        refresh_id: message.refresh_id,
        kind: message.kind,
        scope: message.scope,
        provider: message.provider,
        part,
        final,
        outcome,
        complete: final && outcome === 'ok' && read !== undefined && boardReadWhole(read),
        started_at: startedAt.toISOString(),
        latency_ms: Date.now() - startedAt.getTime(),
        fetched_at: new Date().toISOString(),
        records,
        ...(read ? { board_read: read } : {}),
        ...(readListingIds ? { read_listing_ids: readListingIds } : {}),
      });
    const failed = (error: string, outcome: ReadFailure) =>
      publish(0, true, [], { changed: false, validators: board.validators ?? {}, error, skipped: 0 }, outcome);

    const admitted = this.breakers.admit(key);
    if (!admitted.ok) {
      this.reads.add(1, { ats: board.ats, outcome: 'breaker_open' });
      return failed(
        `breaker open until ${new Date(admitted.openUntil).toISOString()} after repeated failures`,
        'provider_error',
      );
    }
    let result: BoardReadResult;
    try {
      result = await this.reader.read({
        ats: board.ats,
        board: board.board,
        baseUrl: board.base_url,
        company: { name: board.company_name, domain: board.company_domain },
        validators: board.validators ?? null,
        maxWaitMs,
        callTimeoutMs,
      });
    } catch (error) {
      const reason = error instanceof BoardReadError ? error.message : 'could not be read';
      const kind = error instanceof BoardReadError ? error.kind : null;
      if (kind === 'queued') {
        // the crawler's own limit kept the request from being sent: nothing the board did
        this.reads.add(1, { ats: board.ats, outcome: 'queued' });
        this.logger.warn({ board: key, reason }, 'board read waited past the sweep budget for its host');
        return failed(`${reason} (sweep budget)`, 'provider_timeout');
      }
      if (kind === 'host_backoff') {
        // another board of the host was answered 429: this one was not asked, its breaker not told
        this.reads.add(1, { ats: board.ats, outcome: 'host_backoff' });
        return failed(reason, 'provider_error');
      }
      const opened = this.breakers.failed(key);
      this.reads.add(1, { ats: board.ats, outcome: 'error' });
      this.logger.warn({ board: key, reason, breaker_opened: opened }, 'board read failed');
      const timedOut = kind === 'timeout';
      return failed(timedOut ? `${reason} (deadline)` : reason, timedOut ? 'provider_timeout' : 'provider_error');
    }
    this.breakers.succeeded(key);
    this.reads.add(1, { ats: board.ats, outcome: result.changed ? 'changed' : 'unchanged' });
    const listed = result.changed ? readListingIds(result.jobs.records, result.jobs.skippedIds) : undefined;
    const { parts, oversized } = recordParts(
      result.changed ? result.jobs.records : [],
      BOARD_PART_RECORDS,
      PART_MAX_BYTES - (listed?.bytes ?? 0),
    );
    // an opening too large to hand on is skipped as an unreadable one is, under its id (one too
    // long to name is counted only: the read is then not whole)
    const named = oversized.filter((id) => id.length <= BOARD_SKIPPED_ID_MAX_CHARS);
    const skippedIds = result.changed ? [...result.jobs.skippedIds, ...named] : [];
    const read: BoardReadOutcome = {
      changed: result.changed,
      validators: result.validators,
      error: null,
      skipped: result.changed ? result.jobs.skipped + oversized.length : 0,
      ...(skippedIds.length > 0 && skippedIds.length <= BOARD_SKIPPED_IDS_MAX ? { skipped_ids: skippedIds } : {}),
    };
    if (read.skipped > 0) {
      const whole = boardReadWhole(read);
      this.logger.warn(
        { board: key, skipped: read.skipped, oversized: oversized.length, whole },
        whole
          ? 'board items skipped under their ids: their openings stay listed'
          : 'board items skipped without ids: the read judges no absences',
      );
    }
    // every part names the whole read's listings only when the read stands for the board
    const ids = listed && boardReadWhole(read) ? listed.ids : undefined;
    for (const [part, records] of parts.entries()) {
      const final = part === parts.length - 1;
      await publish(part, final, records, final ? read : undefined, 'ok', ids);
    }
  }
}

/**
 * The listing ids a changed read shows (its records' and its skipped items'), and the bytes they
 * take in each part; undefined when they are too many or too long to name, or take more than
 * `BOARD_READ_IDS_MAX_BYTES`.
 */
export function readListingIds(
  records: readonly NormalizedProviderRecord[],
  skippedIds: readonly string[],
): { ids: string[]; bytes: number } | undefined {
  const ids = [...new Set([...records.map((r) => r.provider_job_id), ...skippedIds])];
  if (ids.length > BOARD_READ_IDS_MAX || ids.some((id) => id.length > BOARD_SKIPPED_ID_MAX_CHARS)) return undefined;
  const bytes = Buffer.byteLength(JSON.stringify(ids));
  return bytes <= BOARD_READ_IDS_MAX_BYTES ? { ids, bytes } : undefined;
}
