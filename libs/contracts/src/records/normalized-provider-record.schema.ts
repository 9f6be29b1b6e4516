/**
 * The provider-neutral normalized record: one provider's view of one opening, after its
 * adapter mapped the provider's own format (country `UK` -> `GB`, salary text -> numbers, ...).
 * The dedupe service merges these into canonical Jobs.
 *
 * Uses the same value shapes as Job (`location`, `salary`, enums); there is no canonical id yet.
 */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, UrlSchema } from '../public/common.schema.js';
import { ClosedReasonSchema, EmploymentTypeSchema, JobStatusSchema, LocationSchema, SalarySchema, SenioritySchema } from '../public/job.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';

export const NormalizedProviderRecordSchema = z.strictObject({
  provider: ProviderSlugSchema,
  provider_job_id: z.string().min(1),
  url: UrlSchema.nullable(),
  title: z.string().min(1),
  company: z.strictObject({ name: z.string().min(1), domain: DomainSchema.nullable() }),
  location: LocationSchema,
  employment_type: EmploymentTypeSchema.nullable(),
  seniority: SenioritySchema.nullable(),
  job_family: z.string().min(1).nullable(),
  salary: SalarySchema.nullable(),
  description: z.string().nullable(),
  apply_url: UrlSchema.nullable(),
  posted_at: DateTimeSchema.nullable(),
  /** when the provider-fetcher saw this record */
  seen_at: DateTimeSchema,
  /**
   * Optional (added compatibly in issue 5): only a source that checks the employer's page, the
   * own crawler, lists recently closed openings, with `status: closed` and why. Omitted = open.
   */
  status: JobStatusSchema.optional(),
  closed_reason: ClosedReasonSchema.exclude(['unknown']).nullable().optional(),
});
export type NormalizedProviderRecord = z.infer<typeof NormalizedProviderRecordSchema>;
