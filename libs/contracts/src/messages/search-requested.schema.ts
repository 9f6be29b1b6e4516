/**
 * `search.requested` (key: search_id): gateway -> search-orchestrator.
 *
 * A sync search uses its request id (`req_...`) as search id; an async search its `srch_...`.
 * `request` is the parsed request with defaults applied.
 *
 * Spec choice: an async search will need its own request shape (limit up to 10 000); until
 * async lands, both kinds carry a JobSearchRequest.
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { AccountIdSchema, RequestIdSchema, SearchIdSchema } from '../public/ids.schema.js';
import { JobSearchRequestSchema } from '../public/job-search.schema.js';
import { PlanSchema, ProviderSlugSchema } from '../public/providers.schema.js';
import { EpochMsSchema, MessageVersionSchema } from './common.schema.js';

export const SearchKindSchema = z.enum(['sync', 'async']);
export type SearchKind = z.infer<typeof SearchKindSchema>;

/** `req_...` for sync searches, `srch_...` for async ones. */
export const SearchCorrelationIdSchema = z.union([RequestIdSchema, SearchIdSchema]);

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    kind: SearchKindSchema,
    account_id: AccountIdSchema,
    plan: PlanSchema,
    mode: ApiKeyModeSchema,
    providers_enabled: z.array(ProviderSlugSchema),
    request: JobSearchRequestSchema,
    requested_at: DateTimeSchema,
    deadline_at: EpochMsSchema,
    /**
     * A sync search: the moment the gateway stops waiting for its page's charge (it has answered
     * its caller `internal_error` by then), copied into `billing.page.charge.requested`. Billing
     * charges no page after it: the caller was told to retry. Absent (an async search): no bound.
     */
    answer_by: DateTimeSchema.optional(),
  })
  .superRefine((value, ctx) => {
    const prefix = value.kind === 'sync' ? 'req_' : 'srch_';
    if (!value.search_id.startsWith(prefix)) {
      ctx.addIssue({ code: 'custom', path: ['search_id'], message: `a ${value.kind} search id starts with ${prefix}` });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
