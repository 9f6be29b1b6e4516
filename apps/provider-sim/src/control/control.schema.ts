import { z } from 'zod';
import {
  BOARD_ATS_LIST,
  CLOSED_REASONS,
  EMPLOYMENT_TYPES,
  PROVIDER_SLUGS,
  SALARY_PERIODS,
  SENIORITIES,
  type JobPatch,
  type NewJobInput,
} from '@jobs/sim-world';
import { BOARD_FAIL_MODES } from '../boards/board-behaviour.service.js';

export const ProviderSlugSchema = z.enum(PROVIDER_SLUGS);

export const ProviderSettingsBody = z.strictObject({
  latency_ms: z.number().int().min(0).max(120_000).optional(),
  fail: z.enum(['none', 'error', 'timeout']).optional(),
  status: z.enum(['operational', 'degraded', 'down']).optional(),
});

export const CompanyBody = z.strictObject({
  domain: z.string().trim().min(1).max(253),
  name: z.string().trim().min(1).max(200),
});

const LocationBody = z.strictObject({
  city: z.string().trim().min(1).max(200).nullable().optional(),
  region: z.string().trim().min(1).max(200).nullable().optional(),
  country_code: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'expected an ISO 3166-1 alpha-2 code')
    .transform((s) => s.toUpperCase())
    .nullable()
    .optional(),
  remote: z.boolean().nullable().optional(),
});

const SalaryBody = z
  .strictObject({
    min: z.number().nonnegative().nullable().optional(),
    max: z.number().nonnegative().nullable().optional(),
    currency: z.string().regex(/^[A-Z]{3}$/, 'expected an ISO 4217 code'),
    period: z.enum(SALARY_PERIODS),
  })
  .refine((s) => s.min == null || s.max == null || s.min <= s.max, {
    message: 'min must not exceed max',
    path: ['min'],
  });

const jobFields = {
  company_domain: z.string().trim().min(1).max(253),
  title: z.string().trim().min(1).max(300),
  providers: z.array(ProviderSlugSchema).max(PROVIDER_SLUGS.length),
  location: LocationBody.nullable().optional(),
  employment_type: z.enum(EMPLOYMENT_TYPES).nullable().optional(),
  seniority: z.enum(SENIORITIES).nullable().optional(),
  job_family: z.string().trim().min(1).max(100).nullable().optional(),
  salary: SalaryBody.nullable().optional(),
  description: z.string().max(20_000).nullable().optional(),
  apply_url: z.url().nullable().optional(),
  posted_at: z.iso.datetime({ offset: true }).optional(),
};

export const NewJobBody = z.strictObject(jobFields);
export const PatchJobBody = z.strictObject(jobFields).partial();
export const CloseJobBody = z.strictObject({ reason: z.enum(CLOSED_REASONS) });

/** The market clock's new speed: 1 real time, 0 standing still. */
export const ClockBody = z.strictObject({ speed: z.number().min(0).max(100_000) });

export const GroundTruthQuery = z.strictObject({
  provider: ProviderSlugSchema.optional(),
  provider_job_id: z.string().min(1).optional(),
  world_job_id: z.string().min(1).optional(),
});

type JobBody = z.infer<typeof PatchJobBody>;

/** Admin-API field names (snake_case, as in interface.md) to the world's input. */
export function toJobPatch(body: JobBody): JobPatch {
  const patch: JobPatch = {};
  if (body.company_domain !== undefined) patch.companyDomain = body.company_domain;
  if (body.title !== undefined) patch.title = body.title;
  if (body.providers !== undefined) patch.providers = body.providers;
  if (body.location !== undefined) {
    const l = body.location;
    patch.location =
      l === null ? null : { city: l.city, region: l.region, countryCode: l.country_code, remote: l.remote };
  }
  if (body.employment_type !== undefined) patch.employmentType = body.employment_type;
  if (body.seniority !== undefined) patch.seniority = body.seniority;
  if (body.job_family !== undefined) patch.jobFamily = body.job_family;
  if (body.salary !== undefined)
    patch.salary =
      body.salary === null
        ? null
        : {
            min: body.salary.min ?? null,
            max: body.salary.max ?? null,
            currency: body.salary.currency,
            period: body.salary.period,
          };
  if (body.description !== undefined) patch.description = body.description;
  if (body.apply_url !== undefined) patch.applyUrl = body.apply_url;
  if (body.posted_at !== undefined) patch.postedAt = Date.parse(body.posted_at);
  return patch;
}

export function toNewJob(body: z.infer<typeof NewJobBody>): NewJobInput {
  return toJobPatch(body) as NewJobInput;
}

export const BoardAtsSchema = z.enum(BOARD_ATS_LIST);

/** A company publishes on the board; `fail` makes the board answer a 503, nothing, or a page that is not its format. */
export const BoardBody = z.strictObject({
  company_domain: z.string().trim().min(1).max(253),
  fail: z.enum(BOARD_FAIL_MODES).optional(),
});
