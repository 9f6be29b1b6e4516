/**
 * `billing.page.charge.requested` (key: account_id): search-orchestrator -> billing.
 * The job ids of one gathered page, in page order, and where the page sits in its stored result
 * set. Billing charges the new unique jobs up to `max_credits`, cuts the page at the cap, mints
 * `next_cursor` right after the last job it returns (so a capped page skips nothing) and answers
 * the gateway on `search.page.charged`. The page itself goes to the gateway beside this request
 * (`search.page.gathered`): billing needs its ids, not its jobs.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { SYNC_SEARCH_LIMITS } from '../public/job-search.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, JobIdSchema, RequestIdSchema } from '../public/ids.schema.js';
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
  /** The page's jobs, in page order (the page itself travels on `search.page.gathered`). */
  job_ids: z.array(JobIdSchema).max(SYNC_SEARCH_LIMITS.max),
  /** Where the page starts in its stored result set; null when no page can follow. */
  continuation: SearchContinuationSchema.nullable(),
  /**
   * The search's `answer_by`: past it, billing charges nothing and answers `expired` on
   * `search.page.charged` (the gateway has told its caller to retry). Absent: no bound.
   */
  answer_by: DateTimeSchema.optional(),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
