import { z } from 'zod';

/** Bodies and queries of the dashboard's own API (/dashboard/api), not part of the public API. */
export const SignInRequestSchema = z.strictObject({ key: z.string().min(1).max(200) });
export const KeyCreateRequestSchema = z.strictObject({ mode: z.enum(['live', 'test']) });
export const KeyParamsSchema = z.strictObject({ id: z.string().regex(/^key_[A-Za-z0-9]{1,64}$/) });
export const DeliveriesQuerySchema = z.strictObject({ cursor: z.string().max(40).optional() });
/** PATCH /dashboard/api/watches/:id: pause (`paused`) or resume (`active`) a watch. */
export const WatchStatusRequestSchema = z.strictObject({ status: z.enum(['active', 'paused']) });
