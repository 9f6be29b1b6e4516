/**
 * `refresh.records.fetched` (key: scope_key): provider-fetcher -> dedupe. One provider's
 * listing for a refresh scope. `complete` is true only when the listing was read to its end
 * (ok outcome, fewer than `want` records): only then may dedupe treat an absent source as no
 * longer listed. A failed or timed-out fetch carries no records and never closes anything.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema, refineRecordsOfProvider } from './common.schema.js';
import { RefreshScopeSchema } from './refresh-fetch-requested.schema.js';
import { RefreshIdSchema } from './refresh-requested.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    refresh_id: RefreshIdSchema,
    scope: RefreshScopeSchema,
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    complete: z.boolean(),
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== 'ok' && (value.records.length > 0 || value.complete)) {
      ctx.addIssue({ code: 'custom', path: ['outcome'], message: 'a failed fetch carries no records and is never complete' });
    }
    refineRecordsOfProvider(value, ctx);
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.scope.key;
