/**
 * Canonical Job, its Source entries, and the lifecycle-only job objects of events.
 *
 * Null semantics: `null` = unknown, `[]` = verified none, an omitted field = not part of that
 * payload. A full Job has every field; the lifecycle-only objects carried by `job.closed` and
 * `job.reposted` events are separate schemas that simply do not have the other fields.
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `closed_reason` is null exactly when `status` is `open` (a closed job with no known reason
 *   uses `unknown`).
 * - A canonical job has at least one source.
 * - `salary.min <= salary.max` is not enforced here: providers disagree and the normaliser
 *   owns that clean-up; the contract only fixes the shape.
 */
import { z } from 'zod';
import {
  CountryCodeSchema,
  CurrencyCodeSchema,
  DateTimeSchema,
  NonNegativeIntSchema,
  ProbabilitySchema,
  UrlSchema,
} from './common.schema.js';
import { CompanyRefSchema } from './company.schema.js';
import { JobIdSchema } from './ids.schema.js';
import { ProviderSlugSchema } from './providers.schema.js';

export const EMPLOYMENT_TYPES = ['full_time', 'part_time', 'contract', 'internship', 'temporary'] as const;
export const EmploymentTypeSchema = z.enum(EMPLOYMENT_TYPES);
export type EmploymentType = z.infer<typeof EmploymentTypeSchema>;

export const SENIORITIES = ['intern', 'junior', 'mid', 'senior', 'lead', 'director', 'vp', 'c_level'] as const;
export const SenioritySchema = z.enum(SENIORITIES);
export type Seniority = z.infer<typeof SenioritySchema>;

export const JobStatusSchema = z.enum(['open', 'closed']);
export type JobStatus = z.infer<typeof JobStatusSchema>;

export const ClosedReasonSchema = z.enum(['filled', 'expired', 'removed', 'unknown']);
export type ClosedReason = z.infer<typeof ClosedReasonSchema>;

export const LocationSchema = z.strictObject({
  city: z.string().nullable(),
  region: z.string().nullable(),
  country_code: CountryCodeSchema.nullable(),
  /** true remote, false on-site or hybrid, null unknown */
  remote: z.boolean().nullable(),
});
export type Location = z.infer<typeof LocationSchema>;

export const SalaryPeriodSchema = z.enum(['year', 'month', 'hour']);
export type SalaryPeriod = z.infer<typeof SalaryPeriodSchema>;

export const SalaryOriginSchema = z.enum(['declared', 'inferred']);
export type SalaryOrigin = z.infer<typeof SalaryOriginSchema>;

export const SalarySchema = z.strictObject({
  min: z.number().nonnegative().nullable(),
  max: z.number().nonnegative().nullable(),
  currency: CurrencyCodeSchema,
  period: SalaryPeriodSchema,
  /** `declared`: stated in the posting; `inferred`: estimated by a source */
  origin: SalaryOriginSchema,
});
export type Salary = z.infer<typeof SalarySchema>;

export const LicenseSchema = z.strictObject({
  /** may be shown to end users */
  display: z.boolean(),
  /** may be resold or redistributed as data */
  resale: z.boolean(),
});
export type License = z.infer<typeof LicenseSchema>;

export const SourceSchema = z.strictObject({
  provider: ProviderSlugSchema,
  provider_job_id: z.string().min(1),
  url: UrlSchema.nullable(),
  first_seen_at: DateTimeSchema,
  last_seen_at: DateTimeSchema,
  /** job fields this source contributed, e.g. `salary`, `location.remote` */
  fields: z.array(z.string().min(1)),
});
export type Source = z.infer<typeof SourceSchema>;

const jobShape = {
  id: JobIdSchema,
  title: z.string().min(1),
  company: CompanyRefSchema,
  location: LocationSchema,
  employment_type: EmploymentTypeSchema.nullable(),
  seniority: SenioritySchema.nullable(),
  job_family: z.string().min(1).nullable(),
  salary: SalarySchema.nullable(),
  description: z.string().nullable(),
  apply_url: UrlSchema.nullable(),
  posted_at: DateTimeSchema.nullable(),
  first_seen_at: DateTimeSchema,
  last_seen_at: DateTimeSchema,
  last_verified_at: DateTimeSchema.nullable(),
  status: JobStatusSchema,
  closed_reason: ClosedReasonSchema.nullable(),
  repost_count: NonNegativeIntSchema,
  p_real: ProbabilitySchema,
  sources: z.array(SourceSchema).min(1),
  license: LicenseSchema,
};

export const JobSchema = z.strictObject(jobShape).superRefine((job, ctx) => {
  if ((job.status === 'open') !== (job.closed_reason === null)) {
    ctx.addIssue({
      code: 'custom',
      path: ['closed_reason'],
      message: 'closed_reason must be null while the job is open and set once it is closed',
    });
  }
});
export type Job = z.infer<typeof JobSchema>;

/**
 * The fields of a job that filters read and a change can move (not `first_seen_at`, `status`): a
 * job change names their values before it, so a watch can tell a job that entered or left it.
 */
export const JobScopeFieldsSchema = z
  .strictObject({
    title: jobShape.title,
    company: jobShape.company,
    location: jobShape.location,
    employment_type: jobShape.employment_type,
    seniority: jobShape.seniority,
    job_family: jobShape.job_family,
    salary: jobShape.salary,
  })
  .partial();
export type JobScopeFields = z.infer<typeof JobScopeFieldsSchema>;

/** `data.job` of a `job.closed` event: id, title, company, status and closed_reason only. */
export const JobClosedLifecycleSchema = z.strictObject({
  id: jobShape.id,
  title: jobShape.title,
  company: jobShape.company,
  status: z.literal('closed'),
  closed_reason: ClosedReasonSchema,
});
export type JobClosedLifecycle = z.infer<typeof JobClosedLifecycleSchema>;

/** `data.job` of a `job.reposted` event: id, title, company, status and repost_count only. */
export const JobRepostedLifecycleSchema = z.strictObject({
  id: jobShape.id,
  title: jobShape.title,
  company: jobShape.company,
  status: JobStatusSchema,
  repost_count: z.number().int().min(1),
});
export type JobRepostedLifecycle = z.infer<typeof JobRepostedLifecycleSchema>;

/** Path parameter of `GET /jobs/{id}`. */
export const JobParamsSchema = z.strictObject({ id: JobIdSchema });
export type JobParams = z.infer<typeof JobParamsSchema>;
