/**
 * `provider.records.fetched` (key: search_id): provider-fetcher -> dedupe.
 * A failed or timed-out fetch carries no records; every record names the fetched provider.
 */
import { z } from 'zod';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { NormalizedProviderRecordSchema } from '../records/normalized-provider-record.schema.js';
import { FetchOutcomeSchema, MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    search_id: SearchCorrelationIdSchema,
    provider: ProviderSlugSchema,
    outcome: FetchOutcomeSchema,
    latency_ms: NonNegativeIntSchema,
    fetched_at: DateTimeSchema,
    records: z.array(NormalizedProviderRecordSchema),
  })
  .superRefine((value, ctx) => {
    if (value.outcome !== 'ok' && value.records.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['records'], message: 'a failed fetch carries no records' });
    }
    value.records.forEach((record, index) => {
      if (record.provider !== value.provider) {
        ctx.addIssue({ code: 'custom', path: ['records', index, 'provider'], message: 'record from another provider' });
      }
    });
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
