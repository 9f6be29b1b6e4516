/**
 * `query.responded` (key: query_id): billing, dedupe, search-orchestrator, webhook-dispatcher -> gateway. The answer to
 * a
 * `*.query.requested`; every gateway replica hears it and the one waiting settles it.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { RequestIdSchema } from '../public/ids.schema.js';
import { LedgerListResponseSchema, LedgerReasonSchema } from '../public/ledger.schema.js';
import { JobSchema } from '../public/job.schema.js';
import { CompanyProfileSchema } from '../public/company.schema.js';
import { AsyncSearchSchema } from '../public/async-search.schema.js';
import { WatchListResponseSchema, WatchSchema } from '../public/watch.schema.js';
import { EventListResponseSchema } from '../public/event.schema.js';
import { WebhookReplayResponseSchema } from '../public/webhook.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { SearchFailureSchema } from './search-responded.schema.js';
import { WebhookUrlUsageSchema } from './orchestrator-query-requested.schema.js';

/** An endpoint secret sealed for its account, mode and URL (`whenc1.<iv>.<tag>.<ciphertext>`). */
const SealedSecretSchema = z.string().regex(/^whenc1\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);

export const QueryResultSchema = z.discriminatedUnion('kind', [
  z.strictObject({ kind: z.literal('ledger.list'), page: LedgerListResponseSchema }),
  z.strictObject({ kind: z.literal('job.get'), job: JobSchema }),
  z.strictObject({
    kind: z.literal('job.charge'),
    reason: LedgerReasonSchema.nullable(),
    credits_charged: NonNegativeIntSchema,
    credits_remaining: NonNegativeIntSchema,
  }),
  z.strictObject({ kind: z.literal('company.profile'), profile: CompanyProfileSchema }),
  z.strictObject({
    kind: z.literal('company.charge'),
    credits_charged: NonNegativeIntSchema,
    credits_remaining: NonNegativeIntSchema,
  }),
  z.strictObject({ kind: z.literal('account.open'), credits_remaining: NonNegativeIntSchema }),
  z.strictObject({ kind: z.literal('credits.add'), credits_remaining: NonNegativeIntSchema }),
  z.strictObject({ kind: z.literal('async.create'), search: AsyncSearchSchema }),
  z.strictObject({ kind: z.literal('async.get'), search: AsyncSearchSchema }),
  z.strictObject({ kind: z.literal('watch.create'), watch: WatchSchema }),
  z.strictObject({ kind: z.literal('watch.list'), page: WatchListResponseSchema }),
  z.strictObject({ kind: z.literal('watch.delete'), deleted: z.literal(true) }),
  z.strictObject({ kind: z.literal('watch.set_status'), watch: WatchSchema }),
  z.strictObject({ kind: z.literal('events.list'), page: EventListResponseSchema }),
  z.strictObject({ kind: z.literal('webhook.replay'), replay: WebhookReplayResponseSchema }),
  z.strictObject({ kind: z.literal('webhook_urls.list'), urls: z.array(WebhookUrlUsageSchema), more: z.boolean() }),
  z.strictObject({
    kind: z.literal('webhook_secret.current'),
    sealed_secret: SealedSecretSchema,
    created_at: DateTimeSchema,
  }),
  z.strictObject({
    kind: z.literal('webhook_secret.rotate'),
    sealed_secret: SealedSecretSchema,
    created_at: DateTimeSchema,
    previous_expires_at: DateTimeSchema.nullable(),
  }),
]);
export type QueryResult = z.infer<typeof QueryResultSchema>;

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    query_id: RequestIdSchema,
    outcome: z.enum(['ok', 'error']),
    result: QueryResultSchema.optional(),
    error: SearchFailureSchema.optional(),
  })
  .refine(
    (value) =>
      value.outcome === 'ok' ? value.result !== undefined && !value.error : value.error !== undefined && !value.result,
    {
      message: 'an ok answer carries a result, an error answer an error',
    },
  );
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.query_id;
