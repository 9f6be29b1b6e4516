/**
 * `job.lifecycle.changed` (key: job_id): dedupe -> search-orchestrator (the watch matcher).
 * One change of one canonical job, written to dedupe's outbox in the transaction that made it,
 * so each change is published once (at least once on the wire; `change_id` dedupes).
 *
 * - `opened`: a canonical job was created.
 * - `updated`: a field of an open job changed (`changed_fields` names them, public Job paths;
 *   `previous` holds the values before it of those that filters read).
 * - `closed`: every source stopped listing it in complete refreshes (never after a failed
 *   fetch); `job.closed_reason` is set.
 * - `reposted`: the job was re-listed (`repost_count` rose; same id; open again).
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { JobSchema, JobScopeFieldsSchema } from '../public/job.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const JobChangeSchema = z.enum(['opened', 'updated', 'closed', 'reposted']);
export type JobChange = z.infer<typeof JobChangeSchema>;

/** Stable id of one change; events derive their ids from it (same on every redelivery). */
export const ChangeIdSchema = z.string().regex(/^chg_[A-Za-z0-9_-]{1,120}$/, 'Expected a change id (chg_...)');

export const ValueSchema = z
  .strictObject({
    v: MessageVersionSchema,
    change_id: ChangeIdSchema,
    change: JobChangeSchema,
    /**
     * for `updated`: the fields that changed, e.g. `salary`, `description`, `location`; `company` when the job reached
     * a known company (its company had no domain before)
     */
    changed_fields: z.array(z.string().min(1)),
    /**
     * for `updated`: the values before the change of the changed fields that filters read (title,
     * company, location, employment_type, seniority, job_family, salary), so a watch can tell a job
     * that entered its scope (a new opening for it) or left it; absent from older producers
     */
    previous: JobScopeFieldsSchema.optional(),
    /** the full job after the change */
    job: JobSchema,
    occurred_at: DateTimeSchema,
  })
  .superRefine((value, ctx) => {
    if (value.change === 'updated' && value.changed_fields.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['changed_fields'], message: 'an update names the fields that changed' });
    }
    if (value.change === 'closed' && value.job.status !== 'closed') {
      ctx.addIssue({ code: 'custom', path: ['job', 'status'], message: 'a closed change carries the closed job' });
    }
  });
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.job.id;
