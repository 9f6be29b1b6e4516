/**
 * The dashboard's own API (`/dashboard/api`, apps/gateway/src/dashboard): the answers that are not
 * public API objects. The gateway builds them and the dashboard app (apps/dashboard) reads them,
 * both with these types, so the two sides cannot drift apart.
 */
import { z } from 'zod';
import { AsyncSearchStatusSchema } from '../public/async-search.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';

/** A page of a dashboard listing, newest first: `next_cursor` (opaque) asks the next one, null on the last. */
export interface DashboardPage<T> {
  data: T[];
  next_cursor: string | null;
}

/** A signed-in session as the page sees it (the CSRF token it sends back on every change). */
export const DashboardSessionViewSchema = z.strictObject({
  account_id: z.string(),
  key_prefix: z.string(),
  csrf_token: z.string(),
  expires_at: z.string(),
});
export type DashboardSessionView = z.infer<typeof DashboardSessionViewSchema>;

/** An API key of the account, by prefix (the key itself is shown once, at creation). */
export const DashboardKeySchema = z.strictObject({
  id: z.string(),
  prefix: z.string(),
  mode: ApiKeyModeSchema,
  /** The account's own name for the key, given at creation; null when none was. */
  label: z.string().nullable(),
  created_at: z.string(),
  revoked_at: z.string().nullable(),
});
export type DashboardKey = z.infer<typeof DashboardKeySchema>;

/** Credits charged on one UTC day. */
export const DailyUsageSchema = z.strictObject({
  /** YYYY-MM-DD (UTC). */
  day: z.string(),
  credits: z.number(),
  /** Ledger lines of the day, free re-reads included. */
  entries: z.number(),
});
export type DailyUsage = z.infer<typeof DailyUsageSchema>;

/**
 * One request's lines of the ledger (a search page, an async search, a job read, a watch event):
 * what the dashboard lists, newest first, with the lines themselves behind it.
 */
export const LedgerRequestViewSchema = z.strictObject({
  request_id: z.string(),
  operation: z.string(),
  /** Ledger lines of the request: one per job returned (and one for a company profile). */
  entries: z.number(),
  /** Lines charged (a credit each); the rest were already paid for, free. */
  charged: z.number(),
  already_paid: z.number(),
  credits: z.number(),
  first_at: z.string(),
  last_at: z.string(),
});
export type LedgerRequestView = z.infer<typeof LedgerRequestViewSchema>;

export const DeliveryAttemptViewSchema = z.strictObject({
  number: z.number(),
  outcome: z.string(),
  status_code: z.number().nullable(),
  error: z.string().nullable(),
  started_at: z.string(),
  duration_ms: z.number().nullable(),
});
export type DeliveryAttemptView = z.infer<typeof DeliveryAttemptViewSchema>;

export const DeliveryViewSchema = z.strictObject({
  id: z.string(),
  kind: z.string(),
  url: z.string(),
  status: z.string(),
  next_attempt_at: z.string().nullable(),
  created_at: z.string(),
  attempts: z.array(DeliveryAttemptViewSchema),
});
export type DeliveryView = z.infer<typeof DeliveryViewSchema>;

/**
 * One event of the feed with its latest deliveries (the original and any replays, oldest of them
 * first) and their attempts; `deliveries_total` counts them all.
 */
export const EventDeliveriesViewSchema = z.strictObject({
  event_id: z.string(),
  type: z.string(),
  watch_id: z.string().nullable(),
  webhook_url: z.string().nullable(),
  created_at: z.string(),
  deliveries: z.array(DeliveryViewSchema),
  deliveries_total: z.number().int(),
});
export type EventDeliveriesView = z.infer<typeof EventDeliveriesViewSchema>;

/**
 * One async search of the account as the dashboard lists it: the public object's status and
 * counts without its jobs, with what it has cost so far and the bounds it was started with.
 */
export const AsyncSearchViewSchema = z.strictObject({
  id: z.string(),
  status: AsyncSearchStatusSchema,
  /** Unique jobs collected so far (the public object's `jobs_found`). */
  jobs_found: z.number(),
  /** Credits charged so far: jobs are charged as they are collected. */
  credits_charged: z.number(),
  limit: z.number(),
  /** The request's `waterfall.max_credits`; null when it set none. */
  max_credits: z.number().nullable(),
  webhook_url: z.string().nullable(),
  created_at: z.string(),
  completed_at: z.string().nullable(),
});
export type AsyncSearchView = z.infer<typeof AsyncSearchViewSchema>;
