/**
 * `event.charge.requested` (key: account_id): search-orchestrator (the watch matcher) ->
 * billing. A `job.opened` event of a watch: billing charges the job (1 credit unless the
 * account paid for it before, ledger operation `POST /v1/watches/<watch_id>`, request id = the
 * event id) and, in the same transaction, stages the `event.emitted` for delivery. An account
 * without credits gets its event held until a top-up (`account.credits.added`).
 */
import { z } from 'zod';
import { UrlSchema } from '../public/common.schema.js';
import { JobOpenedEventSchema } from '../public/event.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  event: JobOpenedEventSchema,
  webhook_url: UrlSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
