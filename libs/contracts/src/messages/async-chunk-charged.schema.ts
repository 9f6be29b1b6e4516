/**
 * `async.chunk.charged` (key: search_id): billing -> search-orchestrator, staged in billing's
 * outbox in the charge's transaction. `collected` is the prefix of the batch's jobs billing
 * charged or found already paid; `stopped` says why the rest was not collected: the account ran
 * out of credits (the search goes on_hold) or the search reached `max_credits` (it ends).
 */
import { z } from 'zod';
import { NonNegativeIntSchema } from '../public/common.schema.js';
import { AccountIdSchema, JobIdSchema, SearchIdSchema } from '../public/ids.schema.js';
import { LedgerReasonSchema } from '../public/ledger.schema.js';
import { ASYNC_CHUNK_MAX } from './async-chunk-requested.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchIdSchema,
  account_id: AccountIdSchema,
  batch: z.number().int().min(1),
  collected: z.array(z.strictObject({ job_id: JobIdSchema, reason: LedgerReasonSchema })).max(ASYNC_CHUNK_MAX * 2),
  stopped: z.enum(['credits', 'max_credits']).nullable(),
  credits_charged: NonNegativeIntSchema,
  credits_remaining: NonNegativeIntSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
