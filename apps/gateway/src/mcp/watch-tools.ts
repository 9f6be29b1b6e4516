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
import { cursorInput, filtersAsInSearch, idempotencyKeyInput } from './tool-inputs.js';
import { count, idList, pageEnd } from './tool-text.js';

/**
 * list_events' published output: each event's envelope, its data in words. The union of the seven
 * event types with their jobs would weigh on every tool list; the answer itself is checked
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
      'job.opened, job.updated: {job: full Job}; job.reposted, job.closed: {job: id, title, company, ' +
        'status, repost_count or closed_reason}; company.*: {company, is_hiring}; search.completed: ' +
        '{search: id, status, jobs_found}.',
    ),
});
const EventPageOutlineSchema = z.object({ data: z.array(EventOutlineSchema), next_cursor: z.string().nullable() });

const eventsLimit = z
  .number()
  .int()
  .min(PAGE_LIMITS.events.min)
  .max(PAGE_LIMITS.events.max)
  .optional()
  .describe(`Events per page (default ${PAGE_LIMITS.events.default}).`);

/** "2 job.opened, 1 search.completed": what a page of events holds. */
function eventCounts(events: readonly { type: string }[]): string {
  const counts = new Map<string, number>();
  for (const event of events) counts.set(event.type, (counts.get(event.type) ?? 0) + 1);
  return [...counts].map(([type, count]) => `${count} ${type}`).join(', ');
}

export const WatchDeletedSchema = z.strictObject({ id: WatchIdSchema, deleted: z.literal(true) });

export const WATCH_TOOLS: readonly McpTool[] = [
  tool({
    name: 'create_watch',
    endpoint: 'POST /v1/watches',
    purpose: 'A company or saved-search watch sending webhook events',
    title: 'Create a watch (free; job.opened events cost)',
    cost:
      'free to create; each job.opened event it delivers costs 1 credit ' +
      'unless the job was already paid (other events free)',
    description:
      'Sends signed events to webhook_url and list_events: type company (needs domain) or search ' +
      '(needs filters). FREE to create; each job.opened delivered COSTS 1 CREDIT unless the job was ' +
      'already paid, other events free. Pro plan and above.',
    input: z.strictObject({
      type: WatchCreateRequestSchema.shape.type,
      domain: WatchCreateRequestSchema.shape.domain.describe('For type company.'),
      filters: filtersAsInSearch.optional().describe('For type search.'),
      webhook_url: WatchCreateRequestSchema.shape.webhook_url,
      events: WatchCreateRequestSchema.shape.events,
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
    description: "FREE. The account's watches, a server-sized page at a time.",
    input: z.strictObject({ cursor: cursorInput }),
    output: WatchListResponseSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ cursor }) => ({ method: 'GET', url: `/v1/watches${queryString({ cursor })}` }),
    summary: ({ data, next_cursor }) =>
      `${count(data.length, 'watch', 'watches')} (${data.filter((watch) => watch.status === 'active').length} active).` +
      `${pageEnd(next_cursor)}${idList(data.map((watch) => watch.id))}`,
  }),

  tool({
    name: 'delete_watch',
    endpoint: 'DELETE /v1/watches/{id}',
    purpose: 'Deletes a watch',
    title: 'Delete a watch (free)',
    cost: 'free',
    description: 'FREE. Deletes a watch: it sends no more events.',
    input: z.strictObject({ watch_id: WatchIdSchema.describe('wat_...') }),
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
      "FREE. The account's events, oldest first. Omit since to start from the oldest; pass the last " +
      'next_cursor as since for what is new (an empty page has next_cursor null: keep yours).',
    input: z.strictObject({
      since: CursorSchema.optional().describe('A next_cursor of this feed.'),
      limit: eventsLimit,
    }),
    output: EventPageOutlineSchema,
    hints: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    request: ({ since, limit }) => ({ method: 'GET', url: `/v1/events${queryString({ since, limit })}` }),
    result: (answer) => EventListResponseSchema.parse(answer.body),
    summary: ({ data, next_cursor }) =>
      data.length === 0
        ? 'No events (nothing new since the cursor sent).'
        : `${count(data.length, 'event')}, oldest first (${eventCounts(data)}). Next time pass since "${next_cursor ?? '(the cursor you sent)'}".` +
          idList(data.map((event) => event.id)),
  }),
];
