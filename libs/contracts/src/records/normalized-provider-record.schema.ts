/**
 * The provider-neutral normalized record: one provider's view of one opening, after its
 * adapter mapped the provider's own format (country `UK` -> `GB`, salary text -> numbers, ...).
 * The dedupe service merges these into canonical Jobs.
 *
 * Uses the same value shapes as Job (`location`, `salary`, enums); there is no canonical id yet.
 * The fields it shares with Job are written out again rather than spread from Job's: the record
 * is an internal message and the Job a public object, and each changes on its own terms.
 */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, UrlSchema } from '../public/common.schema.js';
import {
  ClosedReasonSchema,
  EmploymentTypeSchema,
  JobStatusSchema,
  LocationSchema,
  SalarySchema,
  SenioritySchema,
} from '../public/job.schema.js';
import { ProviderSlugSchema } from '../public/providers.schema.js';

/**
 * The fields of a record that canonical jobs take from their best source (`location` is the
 * place: city, region and country; `location.remote` is ranked apart, as boards know it apart).
 */
export const RankedFieldSchema = z.enum([
  'title',
  'location',
  'location.remote',
  'employment_type',
  'seniority',
  'job_family',
  'salary',
  'description',
  'apply_url',
  'posted_at',
]);
export type RankedField = z.infer<typeof RankedFieldSchema>;

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
   * Optional (so that older producers' records still parse): only a source that checks the employer's page, the
   * own crawler, lists recently closed openings, with `status: closed` and why. Omitted = open.
   */
  status: JobStatusSchema.optional(),
  closed_reason: ClosedReasonSchema.exclude(['unknown']).nullable().optional(),
  /**
   * Optional: the fields whose value the adapter could not map exactly from the provider's own
   * vocabulary (a level shared by two seniorities, an estimated salary, a snippet, a day without
   * a time, a title the provider rewrote...). Dedupe ranks such a value below an exact one of
   * another partner; only the adapter knows its vocabulary, so the merge never guesses. Omitted
   * or empty: every value is exact.
   */
  lossy: z.array(RankedFieldSchema).optional(),
});
export type NormalizedProviderRecord = z.infer<typeof NormalizedProviderRecordSchema>;
