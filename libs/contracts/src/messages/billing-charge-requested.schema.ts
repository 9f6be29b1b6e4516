/**
 * `billing.charge.requested` (key: account_id): search-orchestrator -> billing.
 * Carries the draft page (jobs, cursor, metadata without the credit fields); billing charges the
 * new unique jobs up to `max_credits`, finalizes the metadata and answers on `search.responded`.
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { JobSearchResponseDraftSchema } from '../public/job-search.schema.js';
import { OperationSchema } from '../public/ledger.schema.js';
import { MessageVersionSchema } from './common.schema.js';
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
  response: JobSearchResponseDraftSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
