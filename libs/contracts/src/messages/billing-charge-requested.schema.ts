/**
 * `billing.charge.requested` (key: account_id): search-orchestrator -> billing.
 * Carries the draft page (jobs and metadata without the credit fields) and where it sits in its
 * stored result set; billing charges the new unique jobs up to `max_credits`, cuts the page at the
 * cap, mints `next_cursor` right after the last job it returns (so a capped page skips nothing),
 * finalizes the metadata and answers on `search.responded`.
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { JobSearchResponseDraftSchema } from '../public/job-search.schema.js';
import { OperationSchema } from '../public/ledger.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { SearchContinuationSchema } from './search-cursor.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchCorrelationIdSchema,
  request_id: RequestIdSchema,
  account_id: AccountIdSchema,
  mode: ApiKeyModeSchema,
  /** e.g. `POST /v1/jobs/search`, copied to the ledger */
  operation: OperationSchema,
  /** `waterfall.max_credits`, null when uncapped */
  max_credits: z.number().int().min(0).nullable(),
  /** The page; its `next_cursor` is billing's to mint, from `continuation`. */
  response: JobSearchResponseDraftSchema.omit({ next_cursor: true }),
  /** Where the page starts in its stored result set; null when no page can follow. */
  continuation: SearchContinuationSchema.nullable(),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
