/**
 * `company.hiring.changed` (key: company domain): dedupe -> search-orchestrator (the watch
 * matcher). A company's `is_hiring.value` changed (true, false or null), decided after a
 * refresh; written to dedupe's outbox with the state it records. A change to null is
 * published too (the matcher fires nothing for it, interface.md).
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { CompanyRefSchema, IsHiringSchema } from '../public/company.schema.js';
import { MessageVersionSchema } from './common.schema.js';
import { ChangeIdSchema } from './job-lifecycle-changed.schema.js';

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  change_id: ChangeIdSchema,
  company: CompanyRefSchema.extend({ domain: z.string().min(1) }),
  is_hiring: IsHiringSchema,
  previous: z.boolean().nullable(),
  occurred_at: DateTimeSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.company.domain;
