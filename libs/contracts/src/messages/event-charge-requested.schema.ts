/**
 * `event.charge.requested` (key: account_id): search-orchestrator (the watch matcher) ->
 * billing. The watch events that carry a full Job, which billing decides on because it owns
 * what each account paid for:
 * - `job.opened`: billing charges the job (1 credit unless the account paid for it before,
 *   ledger operation `POST /v1/watches`, request id = the event id) and, in the same
 *   transaction, stages the `event.emitted` for delivery. An account without credits gets its
 *   event held until a top-up (`account.credits.added`).
 * - `job.updated`: free, and emitted only to an account that has paid for the job; for an
 *   account that has not, it is dropped (a `job.opened` of that job held for credits takes the
 *   updated job instead, so it carries the newest copy when it is released).
 * Keyed by account, so an account's `job.updated` is decided after its earlier `job.opened`.
 */
import { z } from 'zod';
import { UrlSchema } from '../public/common.schema.js';
import { JobOpenedEventSchema, JobUpdatedEventSchema } from '../public/event.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  event: z.discriminatedUnion('type', [JobOpenedEventSchema, JobUpdatedEventSchema]),
  webhook_url: UrlSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
