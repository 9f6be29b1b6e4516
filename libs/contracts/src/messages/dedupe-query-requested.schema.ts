/**
 * `dedupe.query.requested` (key: query_id): gateway -> dedupe. Reads of the canonical job
 * store, which dedupe owns. The answer comes back on `query.responded`.
 */
import { z } from 'zod';
import { AccountIdSchema, JobIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';
import { DomainSchema } from '../public/common.schema.js';
import { MessageVersionSchema } from './common.schema.js';

/**
 * One canonical job, if at least one provider routable on the account's plan has seen it
 * (operator.md: a Starter account never receives a job known only through a partner).
 */
export const JobGetQuerySchema = z.strictObject({
  kind: z.literal('job.get'),
  job_id: JobIdSchema,
  providers_routable: z.array(ProviderSlugSchema).min(1),
});

/**
 * A company's hiring profile (GET /companies/{domain}), computed only from the jobs a provider
 * routable on the account's plan saw; unknown domain (or no such job) = not_found.
 */
export const CompanyProfileQuerySchema = z.strictObject({
  kind: z.literal('company.profile'),
  domain: DomainSchema,
  providers_routable: z.array(ProviderSlugSchema).min(1),
});

export const DedupeQuerySchema = z.discriminatedUnion('kind', [JobGetQuerySchema, CompanyProfileQuerySchema]);
export type DedupeQuery = z.infer<typeof DedupeQuerySchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  query_id: RequestIdSchema,
  account_id: AccountIdSchema,
  query: DedupeQuerySchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.query_id;
