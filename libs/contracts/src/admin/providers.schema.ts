/**
 * Admin API: simulated provider behaviour (operator.md).
 *
 * Choices where the spec is silent (the records in docs/decisions/):
 * - `latency_ms` is an integer 0 to 120000 (added delay of every answer).
 * - An empty body is accepted and changes nothing (the answer shows the current settings).
 */
import { z } from 'zod';
import { ProviderSlugSchema, ProviderStatusSchema } from '../public/providers.schema.js';

export const ProviderFailModeSchema = z.enum(['none', 'error', 'timeout']);
export type ProviderFailMode = z.infer<typeof ProviderFailModeSchema>;

export const ADMIN_PROVIDER_MAX_LATENCY_MS = 120_000;

export const AdminProviderUpdateRequestSchema = z.strictObject({
  latency_ms: z.number().int().min(0).max(ADMIN_PROVIDER_MAX_LATENCY_MS).optional(),
  /** `error`: answer 5xx; `timeout`: answer only after 60 s */
  fail: ProviderFailModeSchema.optional(),
  /** what `GET /v1/providers` reports */
  status: ProviderStatusSchema.optional(),
});
export type AdminProviderUpdateRequest = z.infer<typeof AdminProviderUpdateRequestSchema>;

export const AdminProviderSettingsSchema = z.strictObject({
  slug: ProviderSlugSchema,
  latency_ms: z.number().int().min(0).max(ADMIN_PROVIDER_MAX_LATENCY_MS),
  fail: ProviderFailModeSchema,
  status: ProviderStatusSchema,
});
export type AdminProviderSettings = z.infer<typeof AdminProviderSettingsSchema>;

export const AdminProviderParamsSchema = z.strictObject({ slug: ProviderSlugSchema });
export type AdminProviderParams = z.infer<typeof AdminProviderParamsSchema>;
