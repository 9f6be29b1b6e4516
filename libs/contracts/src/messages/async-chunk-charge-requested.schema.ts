/**
 * `async.chunk.charge.requested` (key: account_id): search-orchestrator -> billing. The new
 * jobs one chunk brought to an async search, in collection order, to charge as collected
 * (rule 4). Billing charges them in order while the account has credits and the search's
 * `max_credits` (counted over every charge of the search) allows, already-paid jobs free,
 * and answers which prefix it collected on `async.chunk.charged`. `batch` numbers the charges of
 * one search: the idempotency mark is `async:<search_id>:<batch>`.
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, JobIdSchema, SearchIdSchema } from '../public/ids.schema.js';
import { OperationSchema } from '../public/ledger.schema.js';
import { ASYNC_CHUNK_MAX } from './async-chunk-requested.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchIdSchema,
  account_id: AccountIdSchema,
  mode: ApiKeyModeSchema,
  batch: z.number().int().min(1),
  /** `POST /v1/searches`, copied to the ledger (request id: the search id) */
  operation: OperationSchema,
  /** `waterfall.max_credits` of the whole search, null when uncapped */
  max_credits: z.number().int().min(0).nullable(),
  job_ids: z
    .array(JobIdSchema)
    .min(1)
    .max(ASYNC_CHUNK_MAX * 2),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
