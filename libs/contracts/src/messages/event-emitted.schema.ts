/**
 * `event.emitted` (key: account_id): search-orchestrator (the watch matcher's free events,
 * search.completed) and billing (charged `job.opened`) -> webhook-dispatcher, which stores the
 * event in the account's feed and delivers it to `webhook_url`.
 */
import { z } from 'zod';
import { UrlSchema } from '../public/common.schema.js';
import { EventSchema } from '../public/event.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  event: EventSchema,
  /** where to deliver; null keeps the event in the feed only */
  webhook_url: UrlSchema.nullable(),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
