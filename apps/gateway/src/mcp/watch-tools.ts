/** The tools for watches and the event feed they fill: all free (a job.opened event costs when it is delivered). */
import { z } from 'zod';
import {
  CursorSchema,
  EventListResponseSchema,
  EventTypeSchema,
  PAGE_LIMITS,
  WatchCreateRequestSchema,
  WatchIdSchema,
  WatchListResponseSchema,
  WatchSchema,
} from '@jobs/contracts';
import { queryString, tool, type McpTool } from './mcp-tool.js';
import { filtersAsInSearch, idempotencyKeyInput } from './tool-inputs.js';

/**
 * list_events' published output: each event's envelope, its data in words. The union of the seven
 * event types with their jobs would be 4 KB of the tool list; the answer itself is checked
 * against the contract's EventListResponseSchema before it is returned.
 */
const EventOutlineSchema = z.object({
  id: z.string(),
  type: EventTypeSchema,
  created_at: z.string(),
  watch_id: z.string().nullable(),
  data: z
    .object({})
    .loose()
    .describe(
      'job.opened, job.updated: {job: a full Job}; job.reposted: ' +
        '{job: id, title, company, status, repost_count}; job.closed: ' +
        '{job: id, title, company, status, closed_reason}; ' +
        'company.hiring_started, company.hiring_stopped: {company, ' +
        'is_hiring}; search.completed: {search: id, status, ' +
        'jobs_found}.',
    ),
});
const EventPageOutlineSchema = z.object({ data: z.array(EventOutlineSchema), next_cursor: z.string().nullable() });

const eventsLimit = z
  .number()
  .int()
  .min(PAGE_LIMITS.events.min)
  .max(PAGE_LIMITS.events.max)
  .optional()
  .describe(
    `Events per page, ${PAGE_LIMITS.events.min} to ${PAGE_LIMITS.events.max} (default ${PAGE_LIMITS.events.default}).`,
  );

/** "evt_1 job.opened job_1 Backend Engineer (Acme)" and the like: what the event is about. */
function eventLine(event: z.output<typeof EventOutlineSchema>): string {
  const data = event.data as {
    job?: { id: string; title: string; company: { name: string } };
    company?: { name: string };
    search?: { id: string; status: string };
  };
  const about = data.job
    ? `${data.job.id} ${data.job.title} (${data.job.company.name})`
    : data.company
      ? data.company.name
      : data.search
        ? `${data.search.id} ${data.search.status}`
        : '';
  return `${event.id} ${event.type} ${about}`.trim();
}

export const WatchDeletedSchema = z.strictObject({ id: WatchIdSchema, deleted: z.literal(true) });

export const WATCH_TOOLS: readonly McpTool[] = [
  tool({
    name: 'create_watch',
    endpoint: 'POST /v1/watches',
    purpose: 'A company or saved-search watch sending webhook events',
    title: 'Create a watch (free; job.opened events cost)',
    cost:
      'free to create; each job.opened event it delivers costs 1 ' +
      'credit unless the job was already paid for (other events ' +
      'free)',
    description:
      'Creates a watch that sends signed webhook events to ' +
      '`webhook_url`: type "company" (needs `domain`) follows one ' +
      'company, type "search" (needs `filters`) follows a saved ' +
      'search. Creating it is FREE; afterwards each job.opened ' +
      'event it delivers COSTS 1 CREDIT unless the job was already ' +
      'paid for, and every other event type is free. Needs the pro ' +
      'plan or above (plan_required otherwise). Events also appear ' +
      'in list_events.',
    input: z.strictObject({
      type: WatchCreateRequestSchema.shape.type,
      domain: WatchCreateRequestSchema.shape.domain.describe('For type company: the company domain.'),
      filters: filtersAsInSearch
        .optional()
        .describe('For type search (required): the Filters object to follow, the same as search_jobs takes.'),
      webhook_url: WatchCreateRequestSchema.shape.webhook_url.describe('http(s) URL that receives the events.'),
      events: WatchCreateRequestSchema.shape.events.describe(
        'Event types to send; all job and company events when omitted.',
      ),
      idempotency_key: idempotencyKeyInput,
    }),
    output: WatchSchema,
    hints: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    request: ({ idempotency_key, ...watch }, newKey) => ({
      method: 'POST',
      url: '/v1/watches',
      body: watch,
      idempotencyKey: idempotency_key ?? newKey(),
    }),
    summary: (watch) => `Watch ${watch.id} (${watch.type}) is ${watch.status}; events go to ${watch.webhook_url}.`,
  }),

  tool({
    name: 'list_watches',
    endpoint: 'GET /v1/watches',
    purpose: "The account's watches, paged",
    title: 'List watches (free)',
    cost: 'free',
    description:
      "Lists the account's watches, a server-sized page at a time (pass next_cursor as cursor for the next). FREE.",
    input: z.strictObject({ cursor: CursorSchema.optional().describe('next_cursor of the previous page.') }),
    output: WatchListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ cursor }) => ({ method: 'GET', url: `/v1/watches${queryString({ cursor })}` }),
    summary: ({ data, next_cursor }) =>
      [
        `${data.length} watches.${next_cursor ? ` More pages: pass cursor "${next_cursor}".` : ''}`,
        ...data.map(
          (watch) =>
            `${watch.id}: ${watch.type} ` +
            `${watch.type === 'company' ? watch.domain : 'search'}, ` +
            `${watch.status}, to ${watch.webhook_url}`,
        ),
      ].join('\n'),
  }),

  tool({
    name: 'delete_watch',
    endpoint: 'DELETE /v1/watches/{id}',
    purpose: 'Deletes a watch',
    title: 'Delete a watch (free)',
    cost: 'free',
    description: 'Deletes a watch by id (wat_...): it sends no more events. FREE. An unknown id is not_found.',
    input: z.strictObject({ watch_id: WatchIdSchema.describe('The watch id, wat_...') }),
    output: WatchDeletedSchema,
    hints: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ watch_id }) => ({ method: 'DELETE', url: `/v1/watches/${encodeURIComponent(watch_id)}` }),
    result: (_answer, { watch_id }) => ({ id: watch_id, deleted: true }),
    summary: ({ id }) => `Watch ${id} deleted.`,
  }),

  tool({
    name: 'list_events',
    endpoint: 'GET /v1/events',
    purpose: 'The event feed, oldest first, from since',
    title: 'Read the event feed (free)',
    cost: 'free',
    description:
      "Reads the account's event feed, oldest first: job.opened, " +
      'job.updated, job.closed, job.reposted, ' +
      'company.hiring_started, company.hiring_stopped and ' +
      'search.completed. FREE (a job.opened event was charged when ' +
      'it was delivered, never when read). Omit `since` to start ' +
      'from the oldest retained event. To read only what is new, ' +
      'pass the last next_cursor you got as `since`: a page with ' +
      'events always carries the cursor after its last event; an ' +
      'empty page answers next_cursor null (nothing new: keep the ' +
      'cursor you sent).',
    input: z.strictObject({
      since: CursorSchema.optional().describe('next_cursor of a previous call; omit to start from the oldest event.'),
      limit: eventsLimit,
    }),
    output: EventPageOutlineSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ since, limit }) => ({ method: 'GET', url: `/v1/events${queryString({ since, limit })}` }),
    result: (answer) => EventListResponseSchema.parse(answer.body),
    summary: ({ data, next_cursor }) =>
      data.length === 0
        ? 'No events (nothing new since the cursor sent).'
        : [
            `${data.length} events, oldest first. Next time pass since "${next_cursor ?? '(the cursor you sent)'}".`,
            ...data.map(eventLine),
          ].join('\n'),
  }),
];
