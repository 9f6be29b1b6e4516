/**
 * `event.charge.requested` (key: account_id): search-orchestrator (the watch matcher) ->
 * billing. The watch events billing decides on, because it owns what each account paid for
 * and what it holds for credits:
 * - `job.opened`: billing charges the job (1 credit unless the account paid for it before,
 *   ledger operation `POST /v1/watches`, request id = the event id) and, in the same
 *   transaction, stages the `event.emitted` for delivery. An account without credits gets its
 *   event held until a top-up (`account.credits.added`).
 * - `job.updated`: free, and emitted only to an account that has paid for the job; for an
 *   account that has not, it is dropped (a `job.opened` of that job held for credits takes the
 *   updated job instead, so it carries the newest copy when it is released; or, when the update
 *   took the job out of the watch's scope, `left_scope`, the held `job.opened` is dropped: the
 *   job no longer matches what the watch asked for).
 * - `job.closed`: free and sent to every watch it concerns, but through billing, behind the
 *   account's earlier events: a `job.opened` of that job still held for credits is dropped first,
 *   so a top-up never charges a job that closed nor sends its stale open copy after the close.
 * - `watch_stopped` (no event): the watch was paused or deleted, so the account's `job.opened`
 *   events of it not yet charged are dropped, never charged or sent (a paused watch replays
 *   nothing on resume): those held for credits, and those made before `stopped_at` that reach
 *   billing after the stop (a matcher that read the watch as active just before it stopped).
 *   Sent with every pause and delete, a repeated one included.
 * - `held_opening_ended` (no event): a job closed or an update took it out of the watch, and the
 *   watch does not hear of it (it subscribes to `job.opened`, not to that `job.closed` or
 *   `job.updated`): the watch's `job.opened` of the job held for credits and made no later than
 *   the change is dropped all the same.
 * - `release_held` (no event; from billing itself): the account's credits rose (a top-up, a
 *   reset) or a release pass left events held: its held `job.opened` events are charged and sent
 *   while credits last. On this topic, not on `account.credits.added`, so the release is decided
 *   behind every stop and closing the account's partition held before the credits came: a top-up
 *   never charges an event whose watch had already stopped.
 * Keyed by account, so an account's `job.updated` is decided after its earlier `job.opened`,
 * and a watch's stop comes after the events the matcher sent before it.
 */
import { z } from 'zod';
import { DateTimeSchema, UrlSchema } from '../public/common.schema.js';
import { JobClosedEventSchema, JobOpenedEventSchema, JobUpdatedEventSchema } from '../public/event.schema.js';
import { AccountIdSchema, JobIdSchema, WatchIdSchema } from '../public/ids.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const EventChargeSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  event: z.discriminatedUnion('type', [JobOpenedEventSchema, JobUpdatedEventSchema, JobClosedEventSchema]),
  webhook_url: UrlSchema,
  /** on a `job.updated`: the update took the job out of the watch's scope */
  left_scope: z.literal(true).optional(),
  /**
   * on a `job.updated`: the watch does not subscribe to `job.updated`, so nothing is sent; a
   * `job.opened` of the job it holds for credits takes the updated job (released, it carries the
   * newest copy)
   */
  held_only: z.literal(true).optional(),
});
export type EventCharge = z.infer<typeof EventChargeSchema>;

export const WatchStoppedSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  watch_stopped: z.strictObject({
    watch_id: WatchIdSchema,
    status: z.enum(['paused', 'deleted']),
    /**
     * When the stop was stored (the orchestrator's clock, after the matchers' version moved): a
     * `job.opened` whose `created_at` (its change's moment) is earlier was made before the stop.
     * Absent from a message of an earlier version: then only held events are dropped.
     */
    stopped_at: DateTimeSchema.optional(),
  }),
});
export type WatchStopped = z.infer<typeof WatchStoppedSchema>;

export const HeldOpeningEndedSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  held_opening_ended: z.strictObject({
    watch_id: WatchIdSchema,
    job_id: JobIdSchema,
    /** the change's `occurred_at`: a held `job.opened` made after it (the job back in scope) stays */
    changed_at: DateTimeSchema,
    because: z.enum(['closed', 'left_scope']),
  }),
});
export type HeldOpeningEnded = z.infer<typeof HeldOpeningEndedSchema>;

export const ReleaseHeldSchema = z.strictObject({
  v: MessageVersionSchema,
  account_id: AccountIdSchema,
  release_held: z.strictObject({
    /** credits were added or reset, or the last pass stopped at its bound with events still held */
    because: z.enum(['credits_added', 'credits_reset', 'more_held']),
  }),
});
export type ReleaseHeld = z.infer<typeof ReleaseHeldSchema>;

export const ValueSchema = z.union([EventChargeSchema, WatchStoppedSchema, HeldOpeningEndedSchema, ReleaseHeldSchema]);
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
