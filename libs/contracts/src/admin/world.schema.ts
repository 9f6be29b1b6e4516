/**
 * Admin API: the simulated job market (operator.md).
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `world_job_id` is an opaque non-empty string chosen by the simulator.
 * - A world job's `providers` holds 1 to 7 distinct slugs.
 * - `location` fields are each optional; `salary.origin` is optional and means `declared` when
 *   omitted (the employer states it; providers may still present it as inferred).
 * - `PATCH` accepts any subset of the create fields, at least one.
 * - `POST .../repost` takes no body; `{}` is accepted too.
 */
import { z } from 'zod';
import { DateTimeSchema, DomainSchema, UrlSchema } from '../public/common.schema.js';
import { EmploymentTypeSchema, LocationSchema, SalarySchema, SenioritySchema } from '../public/job.schema.js';
import { PROVIDER_SLUGS, ProviderSlugSchema } from '../public/providers.schema.js';
import { RefreshIdSchema } from '../messages/refresh-requested.schema.js';
import { BoardAtsSchema, BoardNameSchema } from './crawler-boards.schema.js';

export const AdminWorldCompanySchema = z.strictObject({ domain: DomainSchema, name: z.string().min(1) });
export type AdminWorldCompany = z.infer<typeof AdminWorldCompanySchema>;

export const WorldJobIdSchema = z.string().min(1).max(128);
export type WorldJobId = z.infer<typeof WorldJobIdSchema>;

const worldJobShape = {
  company_domain: DomainSchema,
  title: z.string().min(1),
  providers: z
    .array(ProviderSlugSchema)
    .min(1)
    .max(PROVIDER_SLUGS.length)
    .refine((slugs) => new Set(slugs).size === slugs.length, 'providers must not repeat a slug'),
  location: LocationSchema.partial().optional(),
  employment_type: EmploymentTypeSchema.optional(),
  seniority: SenioritySchema.optional(),
  job_family: z.string().min(1).optional(),
  salary: SalarySchema.extend({ origin: SalarySchema.shape.origin.default('declared') }).optional(),
  description: z.string().optional(),
  apply_url: UrlSchema.optional(),
  posted_at: DateTimeSchema.optional(),
};

export const AdminWorldJobCreateRequestSchema = z.strictObject(worldJobShape);
export type AdminWorldJobCreateRequest = z.infer<typeof AdminWorldJobCreateRequestSchema>;

export const AdminWorldJobResponseSchema = z.strictObject({ world_job_id: WorldJobIdSchema });
export type AdminWorldJobResponse = z.infer<typeof AdminWorldJobResponseSchema>;

export const AdminWorldJobPatchRequestSchema = z
  .strictObject(worldJobShape)
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'a patch changes at least one field');
export type AdminWorldJobPatchRequest = z.infer<typeof AdminWorldJobPatchRequestSchema>;

export const AdminWorldJobCloseRequestSchema = z.strictObject({
  reason: z.enum(['filled', 'expired', 'removed']),
});
export type AdminWorldJobCloseRequest = z.infer<typeof AdminWorldJobCloseRequestSchema>;

export const AdminWorldJobRepostRequestSchema = z.strictObject({}).optional();
export type AdminWorldJobRepostRequest = z.infer<typeof AdminWorldJobRepostRequestSchema>;

export const AdminWorldJobParamsSchema = z.strictObject({ world_job_id: WorldJobIdSchema });
export type AdminWorldJobParams = z.infer<typeof AdminWorldJobParamsSchema>;

/** GET /admin/refresh/{refresh_id}: the id POST /admin/refresh answered. */
export const AdminRefreshParamsSchema = z.strictObject({ refresh_id: RefreshIdSchema });

/**
 * `PUT /admin/world/boards/{ats}/{board}`: the company publishes its openings on this ATS board of
 * the simulator (served at `{simulator}/{ats}/...`, decision 0044) and no longer in the own
 * index's feed; `fail` makes the board answer a 503 (`error`), nothing until the simulator's
 * timeout (`timeout`), an HTML page (`garbage`), or its openings and one item naming its id and
 * nothing else (`unreadable_item`). `DELETE` takes the board down.
 */
export const AdminWorldBoardParamsSchema = z.strictObject({ ats: BoardAtsSchema, board: BoardNameSchema });
export type AdminWorldBoardParams = z.infer<typeof AdminWorldBoardParamsSchema>;

export const AdminWorldBoardFailSchema = z.enum(['none', 'error', 'timeout', 'garbage', 'unreadable_item']);

export const AdminWorldBoardPutRequestSchema = z.strictObject({
  company_domain: DomainSchema,
  fail: AdminWorldBoardFailSchema.optional(),
});
export type AdminWorldBoardPutRequest = z.infer<typeof AdminWorldBoardPutRequestSchema>;

export const AdminWorldBoardSchema = z.strictObject({
  ats: BoardAtsSchema,
  board: BoardNameSchema,
  company_domain: DomainSchema,
  fail: AdminWorldBoardFailSchema,
});
export type AdminWorldBoard = z.infer<typeof AdminWorldBoardSchema>;
