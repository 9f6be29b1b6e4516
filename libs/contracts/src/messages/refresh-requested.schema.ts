/**
 * `refresh.requested` (key: "refresh"): gateway (admin `POST /admin/refresh`) -> dedupe (the
 * refresh planner). Starts one refresh pass now instead of at the next `REFRESH_INTERVAL_MS`
 * tick (right after the pass under way, if one runs).
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const RefreshIdSchema = z.string().regex(/^rfr_[A-Za-z0-9_-]{1,120}$/, 'Expected a refresh id (rfr_...)');

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  refresh_id: RefreshIdSchema,
  requested_at: DateTimeSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (_value: Value): string => 'refresh';
