/**
 * `search.page.gathered` (key: search_id): search-orchestrator -> gateway.
 * A sync search's page as gathered, before billing: the jobs and the metadata without the credit
 * fields and without `next_cursor`. It travels beside the page's charge request to billing, so
 * the page's weight crosses one hop instead of two; the gateway answers once it also has
 * billing's `search.page.charged` for the same search (which jobs were returned, the cursor, the
 * credits).
 */
import { z } from 'zod';
import { JobSearchResponseDraftSchema } from '../public/job-search.schema.js';
import { RequestIdSchema } from '../public/ids.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { SearchCorrelationIdSchema } from './search-requested.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  search_id: SearchCorrelationIdSchema,
  request_id: RequestIdSchema,
  /** The page; its `next_cursor` is billing's to mint. */
  response: JobSearchResponseDraftSchema.omit({ next_cursor: true }),
  /**
   * Per job of `response.data`, the provider credited with it (null: unknown): the gateway counts
   * `contributions` over the jobs billing returns.
   */
  credited_to: z.array(ProviderSlugSchema.nullable()),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.search_id;
