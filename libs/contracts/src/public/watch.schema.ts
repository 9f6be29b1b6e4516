/**
 * Watches: `POST /watches` body, the Watch object, `GET /watches` page and query.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `type: company` requires `domain` (issue path `['domain']`); `filters` is optional and
 *   narrows that company's jobs.
 * - `type: search` requires `filters` (issue path `['filters']`) and refuses `domain` (use
 *   `filters.company_domain_or`).
 * - `webhook_url` is required on create (the Watch object always has one).
 * - `events` holds 1 to 6 distinct watch event types (`search.completed` belongs to async
 *   searches, not watches) and defaults to all six job and company events.
 */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, UrlSchema } from './common.schema.js';
import { WATCH_EVENT_TYPES, WatchEventTypeSchema } from './event.schema.js';
import { FiltersSchema } from './filters.schema.js';
import { CursorSchema, WatchIdSchema } from './ids.schema.js';
import { pageOf } from './pagination.schema.js';

export const WatchTypeSchema = z.enum(['company', 'search']);
export type WatchType = z.infer<typeof WatchTypeSchema>;

export const WatchStatusSchema = z.enum(['active', 'paused']);
export type WatchStatus = z.infer<typeof WatchStatusSchema>;

const watchEvents = z
  .array(WatchEventTypeSchema)
  .min(1)
  .max(WATCH_EVENT_TYPES.length)
  .refine((events) => new Set(events).size === events.length, 'events must not repeat a type');

export const WatchCreateRequestSchema = z
  .strictObject({
    type: WatchTypeSchema,
    // null is accepted as absent: a Watch read back states both, null where unused
    domain: DomainSchema.nullish(),
    filters: FiltersSchema.nullish(),
    webhook_url: UrlSchema,
    events: watchEvents.default([...WATCH_EVENT_TYPES]),
  })
  .superRefine((watch, ctx) => {
    if (watch.type === 'company' && watch.domain == null) {
      ctx.addIssue({ code: 'custom', path: ['domain'], message: 'domain is required when type is company' });
    }
    if (watch.type === 'search' && watch.filters == null) {
      ctx.addIssue({ code: 'custom', path: ['filters'], message: 'filters is required when type is search' });
    }
    if (watch.type === 'search' && watch.domain != null) {
      ctx.addIssue({
        code: 'custom',
        path: ['domain'],
        message: 'domain is only for type company; use filters.company_domain_or',
      });
    }
  });
export type WatchCreateRequest = z.infer<typeof WatchCreateRequestSchema>;
export type WatchCreateRequestInput = z.input<typeof WatchCreateRequestSchema>;

export const WatchSchema = z.strictObject({
  id: WatchIdSchema,
  type: WatchTypeSchema,
  domain: DomainSchema.nullable(),
  filters: FiltersSchema.nullable(),
  webhook_url: UrlSchema,
  events: watchEvents,
  status: WatchStatusSchema,
  created_at: DateTimeSchema,
});
export type Watch = z.infer<typeof WatchSchema>;

export const WatchListResponseSchema = pageOf(WatchSchema);
export type WatchListResponse = z.infer<typeof WatchListResponseSchema>;

/** Page size of `GET /watches` is server-set: only a cursor. */
export const WatchListQuerySchema = z.strictObject({ cursor: CursorSchema.optional() });
export type WatchListQuery = z.infer<typeof WatchListQuerySchema>;

export const WatchParamsSchema = z.strictObject({ id: WatchIdSchema });
export type WatchParams = z.infer<typeof WatchParamsSchema>;
