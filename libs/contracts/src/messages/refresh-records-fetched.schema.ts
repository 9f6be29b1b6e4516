/**
 * `refresh.records.fetched` (a round's sweeps, key `refresh:sweeps`) and
 * `refresh.pass.records.fetched` (a pass's sweeps, key: provider): provider-fetcher -> dedupe.
 * One part (a few pages) of a refresh sweep, in order; the last part is `final` and says whether the whole listing was
 * read (`complete`: every page answered, to its end, within the deadline, its total steady).
 * Only a complete `catalog`, `companies` or `listings` sweep lets dedupe treat this provider's sources of
 * the scope not seen since `started_at` as no longer listed. A failed or timed-out part carries
 * no records and ends the sweep incomplete: it never closes anything.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FetchOutcomeSchema, refineRecordsOfProvider } from './common.schema.js';
import { BoardValidatorsSchema, isWindowSweep, RefreshSweepFields } from './refresh-fetch-requested.schema.js';

/** Skipped items' ids a board read names at most: more, and it names none (the read is not whole). */
export const BOARD_SKIPPED_IDS_MAX = 500;
/** A skipped item's listing id is named only up to this length: a longer one leaves the read not whole. */
export const BOARD_SKIPPED_ID_MAX_CHARS = 300;

/**
 * The bytes (as JSON) a board read's listing ids may take on each of its parts: a board listing
 * more (thousands of postings) sends none, and its re-listings within one read are not told apart.
 */
export const BOARD_READ_IDS_MAX_BYTES = 64 * 1024;
/** Listing ids a board read names at most (`read_listing_ids`). */
export const BOARD_READ_IDS_MAX = 10_000;

/**
 * How a board sweep's read went (its final part): `changed` false when the board answered 304 or
 * the same body as last time (every listing it had is still listed; no records follow), the
 * validators to keep, and why it failed (null when it answered).
 */
export const BoardReadOutcomeSchema = z.strictObject({
  changed: z.boolean(),
  validators: BoardValidatorsSchema,
  error: z.string().max(500).nullable(),
  /** items of the answer that could not be read as openings */
  skipped: NonNegativeIntSchema,
  /**
   * the listing ids of skipped items that named one (at most `BOARD_SKIPPED_IDS_MAX`): openings
   * still on the board, neither read nor absent. A read whose every skipped item is here judges
   * absences as a read of every item would; absent (older fetchers) means none is known.
   */
  skipped_ids: z.array(z.string().min(1).max(BOARD_SKIPPED_ID_MAX_CHARS)).max(BOARD_SKIPPED_IDS_MAX).optional(),
});
export type BoardReadOutcome = z.infer<typeof BoardReadOutcomeSchema>;

/**
 * The read stands for the whole board: it answered, and every item became a record or was skipped
 * under an id it named (an unchanged answer stands for the read before it). Only a changed read
 * that stands for the board judges its other listings absent.
 */
export function boardReadWhole(read: BoardReadOutcome): boolean {
  return read.error === null && read.skipped === (read.skipped_ids?.length ?? 0);
}

export const ValueSchema = z
  .strictObject({
    ...RefreshSweepFields,
    /** 0, 1, 2, ... within the sweep */
    part: NonNegativeIntSchema,
    /** the sweep's last part */
    final: z.boolean(),
    outcome: FetchOutcomeSchema,
    /** final parts only: the listing was read whole */
    complete: z.boolean(),
    /** when the sweep asked for its first page: a source it listed was seen at or after this */
    started_at: DateTimeSchema,
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema),
    /** a board sweep's final part: how its read went */
    board_read: BoardReadOutcomeSchema.optional(),
    /**
     * Each part of a changed board read that stands for the whole board: every listing id the read
     * shows (its parts' records and the ids of the items it skipped). A listing of the board missing
     * here is gone from it while any part is merged, before the final part judges it absent, so a
     * new posting that replaces it is its re-listing. Absent on other reads, and when the ids would
     * take more than `BOARD_READ_IDS_MAX_BYTES`.
     */
    read_listing_ids: z.array(z.string().min(1).max(BOARD_SKIPPED_ID_MAX_CHARS)).max(BOARD_READ_IDS_MAX).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== 'ok' && (value.records.length > 0 || value.complete)) {
      ctx.addIssue({
        code: 'custom',
        path: ['outcome'],
        message: 'a failed fetch carries no records and is never complete',
      });
    }
    if (value.complete && (!value.final || isWindowSweep(value.kind))) {
      ctx.addIssue({
        code: 'custom',
        path: ['complete'],
        message: 'only the final part of a catalog, companies or listings sweep may be complete',
      });
    }
    if (value.read_listing_ids !== undefined && value.kind !== 'board') {
      ctx.addIssue({
        code: 'custom',
        path: ['read_listing_ids'],
        message: 'only a board sweep names the listing ids of its read',
      });
    }
    refineRecordsOfProvider(value, ctx);
  });
export type Value = z.infer<typeof ValueSchema>;

/**
 * A round's parts (`refresh.records.fetched`) on one partition: every sweep's parts reach dedupe
 * in order (absences are judged after its last part), and a round's merges take one of dedupe's
 * concurrent slots, so live searches keep the others.
 */
export const keyOf = (_value: Value): string => 'refresh:sweeps';

/**
 * A pass's parts (`refresh.pass.records.fetched`) by provider: each sweep's parts in order, a pass's providers side by
 * side.
 */
export const passKeyOf = (value: Value): string => (value.kind === 'board' ? value.scope.key : value.provider);
