/**
 * `billing.query.requested` (key: account_id): gateway -> billing. Reads, single charges and the
 * admin API's account writes that the gateway needs answered now; billing owns accounts (plan,
 * rate limit, credits) and the ledger, so it answers them. The answer comes back on
 * `query.responded` under the same `query_id`.
 */
import { z } from 'zod';
import { ApiKeyModeSchema } from '../public/headers.schema.js';
import { RateLimitSchema } from '../public/account.schema.js';
import { DateTimeSchema, NonNegativeIntSchema } from '../public/common.schema.js';
import { AccountIdSchema, CursorSchema, JobIdSchema, RequestIdSchema } from '../public/ids.schema.js';
import { PlanSchema } from '../public/providers.schema.js';
import { OperationSchema } from '../public/ledger.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const LedgerListQuerySchema = z.strictObject({
  kind: z.literal('ledger.list'),
  job_id: JobIdSchema.optional(),
  cursor: CursorSchema.optional(),
  limit: z.number().int().min(1).max(100),
});

/** Charge one job to the account (1 credit unless already paid), e.g. for GET /jobs/{id}. */
export const JobChargeQuerySchema = z.strictObject({
  kind: z.literal('job.charge'),
  job_id: JobIdSchema,
  operation: OperationSchema,
});

/** Charge a company profile read: 1 credit every request (no already-paid rule), ledger job_id null. */
export const CompanyChargeQuerySchema = z.strictObject({
  kind: z.literal('company.charge'),
  domain: z.string().min(1).max(253),
  operation: OperationSchema,
});

/**
 * Admin `POST /admin/accounts`: open the account (the message's account_id, minted by the gateway) with its plan,
 * credits and rate limit.
 */
export const AccountOpenQuerySchema = z.strictObject({
  kind: z.literal('account.open'),
  plan: PlanSchema,
  credits: NonNegativeIntSchema,
  rate_limit: RateLimitSchema,
});

/** Admin `POST /admin/accounts/{id}/credits`: a top-up, applied once however often the message is redelivered. */
export const CreditsAddQuerySchema = z.strictObject({
  kind: z.literal('credits.add'),
  amount: z.number().int().min(1),
});

export const BillingQuerySchema = z.discriminatedUnion('kind', [
  LedgerListQuerySchema,
  JobChargeQuerySchema,
  CompanyChargeQuerySchema,
  AccountOpenQuerySchema,
  CreditsAddQuerySchema,
]);
export type BillingQuery = z.infer<typeof BillingQuerySchema>;

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  query_id: RequestIdSchema,
  account_id: AccountIdSchema,
  mode: ApiKeyModeSchema,
  query: BillingQuerySchema,
  /**
   * The moment the asker stops waiting (it has answered its caller `internal_error` by then).
   * Billing makes no change it would be asked to make later (no charge, no top-up, no account):
   * the caller was told to retry, and a retry must not pay twice. Absent: no bound.
   */
  answer_by: DateTimeSchema.optional(),
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (value: Value): string => value.account_id;
