/**
 * `refresh.fetch.requested` (a re-verification round's sweeps), `refresh.pass.fetch.requested`
 * (a pass's sweeps) and `refresh.board.fetch.requested` (the own crawler's board sweeps of a pass),
 * key: provider (a board sweep: its board): dedupe (the refresh planner) -> provider-fetcher. One
 * sweep: read one provider's listing for one scope to its end, page by page. Keyed by provider, so
 * one provider's sweeps take a polite, bounded share of its concurrency next to live searches. The
 * three topics are consumed by three groups, so a pass's sweeps never wait behind a round's, nor a
 * partner's behind boards waiting for their ATS host.
 *
 * - `catalog`: the provider's whole listing (the own crawler's part of the market).
 * - `catalog_changes`: the own crawler's openings that opened, changed or closed since
 *   `changed_since` (its change feed): a pass reads what moved, and the whole `catalog` only
 *   every few passes. Never complete for absences, like `new_listings`.
 * - `companies`: the listing of a batch of companies (`filters.company_domain_or`, many domains
 *   per call): re-verifies the stored jobs this provider listed for them.
 * - `listings`: stored listings read one by one by the provider's own id (`scope.listing_ids`):
 *   re-verifies what a provider listed at a company the store knows no domain of, which no
 *   `companies` sweep can name. A listing the provider no longer shows is absent.
 * - `board`: one ATS job board the own crawler reads whole (`scope.board`), on every pass: its
 *   openings are own_index listings whose ids start with the board's prefix; complete for absences
 *   of those listings only.
 * - `new_listings`: postings the partner first listed since `listed_since`, whatever their
 *   posting date (a partner lists a posting days after the employer published it): new openings
 *   and re-listings anywhere in the market. Never complete for absences: a window is not a
 *   listing of every job.
 */
import { z } from 'zod';
import { FiltersSchema } from '../public/filters.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { DomainSchema, UrlSchema } from '../public/common.schema.js';
import { BoardAtsSchema, BoardNameSchema } from '../admin/crawler-boards.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';
import { RefreshIdSchema } from './refresh-requested.schema.js';

/** Listing ids one `listings` sweep reads at most: one short burst of reads by id. */
export const LISTINGS_SWEEP_MAX_IDS = 100;

/**
 * What a sweep reads: filters (or, for a `listings` sweep, the provider's ids of the listings), and a stable key naming
 * the scope (e.g. `companies:3/10:0`).
 */
/** The last good read's validators of a board: the next read asks conditionally, an equal body is not parsed. */
export const BoardValidatorsSchema = z.strictObject({
  etag: z.string().max(1000).optional(),
  last_modified: z.string().max(200).optional(),
  content_hash: z.string().max(200).optional(),
});

/** A `board` sweep's board: where it is, whose openings it lists, and its last good read's validators. */
export const RefreshBoardSchema = z.strictObject({
  ats: BoardAtsSchema,
  board: BoardNameSchema,
  base_url: UrlSchema,
  company_domain: DomainSchema,
  company_name: z.string().min(1),
  validators: BoardValidatorsSchema.optional(),
});
export type RefreshBoard = z.infer<typeof RefreshBoardSchema>;

export const RefreshScopeSchema = z.strictObject({
  key: z.string().min(1).max(600),
  filters: FiltersSchema,
  listing_ids: z.array(z.string().min(1).max(200)).min(1).max(LISTINGS_SWEEP_MAX_IDS).optional(),
  board: RefreshBoardSchema.optional(),
});
export type RefreshScope = z.infer<typeof RefreshScopeSchema>;

export const RefreshSweepKindSchema = z.enum([
  'catalog',
  'catalog_changes',
  'companies',
  'listings',
  'new_listings',
  'board',
]);
export type RefreshSweepKind = z.infer<typeof RefreshSweepKindSchema>;

/** Which sweep a message is about: the fields a sweep's request and each of its parts share. */
export const RefreshSweepFields = {
  v: MessageVersionSchema,
  refresh_id: RefreshIdSchema,
  kind: RefreshSweepKindSchema,
  scope: RefreshScopeSchema,
  provider: ProviderSlugSchema,
};

export const ValueSchema = z
  .strictObject({
    ...RefreshSweepFields,
    /** new_listings only: postings the partner first listed at or after this moment */
    listed_since: EpochMsSchema.optional(),
    /** catalog_changes only: openings that opened, changed or closed at or after this moment */
    changed_since: EpochMsSchema.optional(),
    /** the sweep's budget, counted from when the fetcher takes it; a sweep cut short is incomplete */
    timeout_ms: z.number().int().min(1_000).max(600_000),
    /**
     * each call's deadline within the sweep (a provider silent that long is cut off: the sweep
     * ends incomplete); absent: the sweep's budget
     */
    call_timeout_ms: z.number().int().min(1_000).max(600_000).optional(),
    /**
     * a round's sweeps only: when the round should have ended for the freshness bound to hold
     * (epoch ms); the fetcher reads a provider's sweeps side by side while its round is behind
     * it. Absent (a pass's sweep, or a message from before): one at a time.
     */
    due_at: EpochMsSchema.optional(),
  })
  .superRefine((value, ctx) => {
    if ((value.kind === 'new_listings') !== (value.listed_since !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['listed_since'],
        message: 'listed_since is set exactly for new_listings sweeps',
      });
    }
    if ((value.kind === 'catalog_changes') !== (value.changed_since !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['changed_since'],
        message: 'changed_since is set exactly for catalog_changes sweeps',
      });
    }
    if (value.due_at !== undefined && isPassSweep(value.kind)) {
      ctx.addIssue({ code: 'custom', path: ['due_at'], message: "due_at is a round's: a pass's sweep starts at once" });
    }
    if ((value.kind === 'listings') !== (value.scope.listing_ids !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scope', 'listing_ids'],
        message: 'scope.listing_ids is set exactly for listings sweeps',
      });
    }
    if ((value.kind === 'board') !== (value.scope.board !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['scope', 'board'],
        message: 'scope.board is set exactly for board sweeps',
      });
    }
    if ((value.kind.startsWith('catalog') || value.kind === 'board') && value.provider !== 'own_index') {
      ctx.addIssue({ code: 'custom', path: ['provider'], message: 'catalog sweeps read the own crawler' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

/** A board sweep is keyed by its board: boards read side by side, each board's reads in order. */
export const keyOf = (value: Value): string => (value.scope.board ? value.scope.key : value.provider);

/** Sweeps that read a window of what moved: never a whole listing, so never complete for absences. */
export const isWindowSweep = (kind: RefreshSweepKind): boolean => kind === 'new_listings' || kind === 'catalog_changes';

/** Sweeps of a pass (read at once, on the pass topics): the windows of what moved, and the own crawler's boards. */
export const isPassSweep = (kind: RefreshSweepKind): boolean => isWindowSweep(kind) || kind === 'board';
