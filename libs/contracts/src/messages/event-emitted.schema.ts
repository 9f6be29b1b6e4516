/**
 * `event.emitted` (key: account_id): search-orchestrator (the watch matcher's free events,
 * search.completed) and billing (charged `job.opened`) -> webhook-dispatcher, which stores the
 * event in the account's feed and delivers it to `webhook_url`.
 *
 * `mode`: the mode of the key whose object made the event (a test key's async search makes
 * `test` events). The feed and replays of a key show only its own mode's events. Omitted by
 * producers older than the field, which only ever made live events.
 */
import { z } from 'zod';
import { UrlSchema } from '../public/common.schema.js';
import { EventSchema } from '../public/event.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  event: EventSchema,
  /** where to deliver; null keeps the event in the feed only */
  webhook_url: UrlSchema.nullable(),
  mode: ApiKeyModeSchema.default('live'),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
