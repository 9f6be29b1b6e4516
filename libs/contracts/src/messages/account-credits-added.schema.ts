/**
 * `account.credits.added` (key: account_id): billing (the admin `POST
 * /admin/accounts/{id}/credits` it applies, or a credit reset, through its outbox) ->
 * search-orchestrator (resumes the account's `on_hold` async searches). Billing releases held
 * `job.opened` events from its own `event.charge.requested` message staged beside this one.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  amount: z.number().int().positive(),
  credits_remaining: NonNegativeIntSchema,
  added_at: DateTimeSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
