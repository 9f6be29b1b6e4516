/** Company reference (embedded in jobs) and company hiring profile (`GET /companies/{domain}`). */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, NonNegativeIntSchema, ProbabilitySchema } from './common.schema.js';
import { CompanyIdSchema } from './ids.schema.js';
import { ProviderSlugSchema } from './providers.schema.js';

export const CompanyRefSchema = z.strictObject({
  id: CompanyIdSchema,
  name: z.string().min(1),
  domain: DomainSchema.nullable(),
});
export type CompanyRef = z.infer<typeof CompanyRefSchema>;

/** `value: null` means unknown and must never be read as false. */
export const IsHiringSchema = z.strictObject({
  value: z.boolean().nullable(),
  confidence: ProbabilitySchema,
  basis: z.string(),
});
export type IsHiring = z.infer<typeof IsHiringSchema>;

export const HiringPulseDirectionSchema = z.enum(['up', 'flat', 'down']);
export type HiringPulseDirection = z.infer<typeof HiringPulseDirectionSchema>;

export const HiringPulseSchema = z.strictObject({
  direction: HiringPulseDirectionSchema,
  open_jobs_30d_change: z.number().int(),
});
export type HiringPulse = z.infer<typeof HiringPulseSchema>;

export const CompanyProfileSchema = z.strictObject({
  company: CompanyRefSchema,
  open_jobs_count: NonNegativeIntSchema,
  is_hiring: IsHiringSchema,
  hiring_pulse: HiringPulseSchema,
  top_job_families: z.array(z.strictObject({ job_family: z.string().min(1), open_jobs: NonNegativeIntSchema })),
  sources: z.array(
    z.strictObject({ provider: ProviderSlugSchema, open_jobs: NonNegativeIntSchema, last_seen_at: DateTimeSchema }),
  ),
});
export type CompanyProfile = z.infer<typeof CompanyProfileSchema>;

/** Path parameter of `GET /companies/{domain}`. */
export const CompanyDomainParamsSchema = z.strictObject({ domain: DomainSchema });
export type CompanyDomainParams = z.infer<typeof CompanyDomainParamsSchema>;
