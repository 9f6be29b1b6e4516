/**
 * Events (webhook bodies and `GET /events` items), discriminated by `type`.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `watch_id` is a `wat_...` id on every watch event and null exactly on `search.completed`.
 * - `company.hiring_started` carries `is_hiring.value: true`, `company.hiring_stopped`
 *   carries `false` (a change to null fires nothing).
 * - `search.completed` carries a final status only: `completed`, `partial` or `failed`.
 */
import { z } from 'zod';
import { AsyncSearchFinalStatusSchema } from './async-search.schema.js';
import { DateTimeSchema, NonNegativeIntSchema } from './common.schema.js';
import { CompanyRefSchema, IsHiringSchema } from './company.schema.js';
import { CursorSchema, EventIdSchema, SearchIdSchema, WatchIdSchema } from './ids.schema.js';
import { JobClosedLifecycleSchema, JobRepostedLifecycleSchema, JobSchema } from './job.schema.js';
import { pageOf, PAGE_LIMITS, queryLimit } from './pagination.schema.js';

export const EVENT_TYPES = [
  'job.opened',
  'job.reposted',
  'job.closed',
  'job.updated',
  'company.hiring_started',
  'company.hiring_stopped',
  'search.completed',
] as const;
export const EventTypeSchema = z.enum(EVENT_TYPES);
export type EventType = z.infer<typeof EventTypeSchema>;

/** The event types a watch can subscribe to: every job and company event. */
export const WatchEventTypeSchema = EventTypeSchema.exclude(['search.completed']);
export type WatchEventType = z.infer<typeof WatchEventTypeSchema>;
export const WATCH_EVENT_TYPES = WatchEventTypeSchema.options;

const watchEventBase = { id: EventIdSchema, created_at: DateTimeSchema, watch_id: WatchIdSchema };

export const JobOpenedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('job.opened'),
  data: z.strictObject({ job: JobSchema }),
});
export const JobUpdatedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('job.updated'),
  data: z.strictObject({ job: JobSchema }),
});
export const JobRepostedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('job.reposted'),
  data: z.strictObject({ job: JobRepostedLifecycleSchema }),
});
export const JobClosedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('job.closed'),
  data: z.strictObject({ job: JobClosedLifecycleSchema }),
});
export const CompanyHiringStartedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('company.hiring_started'),
  data: z.strictObject({ company: CompanyRefSchema, is_hiring: IsHiringSchema.extend({ value: z.literal(true) }) }),
});
export const CompanyHiringStoppedEventSchema = z.strictObject({
  ...watchEventBase,
  type: z.literal('company.hiring_stopped'),
  data: z.strictObject({ company: CompanyRefSchema, is_hiring: IsHiringSchema.extend({ value: z.literal(false) }) }),
});
export const SearchCompletedEventSchema = z.strictObject({
  id: EventIdSchema,
  created_at: DateTimeSchema,
  watch_id: z.null(),
  type: z.literal('search.completed'),
  data: z.strictObject({
    search: z.strictObject({
      id: SearchIdSchema,
      status: AsyncSearchFinalStatusSchema,
      jobs_found: NonNegativeIntSchema,
    }),
  }),
});

export const EventSchema = z.discriminatedUnion('type', [
  JobOpenedEventSchema,
  JobRepostedEventSchema,
  JobClosedEventSchema,
  JobUpdatedEventSchema,
  CompanyHiringStartedEventSchema,
  CompanyHiringStoppedEventSchema,
  SearchCompletedEventSchema,
]);
export type Event = z.infer<typeof EventSchema>;
/** The event of one type, e.g. `EventOf<'job.closed'>`. */
export type EventOf<T extends EventType> = Extract<Event, { type: T }>;

/** `GET /events`: oldest first. */
export const EventListResponseSchema = pageOf(EventSchema);
export type EventListResponse = z.infer<typeof EventListResponseSchema>;

export const EventListQuerySchema = z.strictObject({
  /** a previous `next_cursor`; omit to start from the oldest retained event */
  since: CursorSchema.optional(),
  limit: queryLimit(PAGE_LIMITS.events.max, PAGE_LIMITS.events.default),
});
export type EventListQuery = z.infer<typeof EventListQuerySchema>;
