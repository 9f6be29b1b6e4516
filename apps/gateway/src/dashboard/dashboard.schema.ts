import { z } from 'zod';
import { LedgerRequestIdSchema } from '@jobs/contracts';

/** Bodies and queries of the dashboard's own API (/dashboard/api), not part of the public API. */
export const SignInRequestSchema = z.strictObject({ key: z.string().min(1).max(200) });
/** A key's label: what the account calls it ("CI", "Alice's laptop"); blank means none. */
export const KEY_LABEL_MAX_LENGTH = 60;
export const KeyLabelSchema = z
  .string()
  .trim()
  .max(KEY_LABEL_MAX_LENGTH)
  .regex(/^[^\p{Cc}]*$/u, 'has a control character')
  .transform((label) => (label === '' ? null : label));
export const KeyCreateRequestSchema = z.strictObject({
  mode: z.enum(['live', 'test']),
  label: KeyLabelSchema.optional(),
});
export const KeyParamsSchema = z.strictObject({ id: z.string().regex(/^key_[A-Za-z0-9]{1,64}$/) });
export const DeliveriesQuerySchema = z.strictObject({ cursor: z.string().max(40).optional() });
/** PATCH /dashboard/api/watches/:id: pause (`paused`) or resume (`active`) a watch. */
export const WatchStatusRequestSchema = z.strictObject({ status: z.enum(['active', 'paused']) });
/** The ledger by request: pages of requests, and of one request's lines. */
export const LedgerPageQuerySchema = z.strictObject({ cursor: z.string().max(160).optional() });
export const LedgerRequestParamsSchema = z.strictObject({ request_id: LedgerRequestIdSchema });
/** The account's async searches: pages of the list. */
export const SearchesQuerySchema = z.strictObject({ cursor: z.string().max(100).optional() });
