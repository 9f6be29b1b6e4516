/**
 * `refresh.requested` (key: "refresh"): gateway (admin `POST /admin/refresh`) -> dedupe (the
 * refresh planner). Starts every provider's pass and round now instead of at the next
 * `REFRESH_INTERVAL_MS` tick (right after the one under way, if one runs).
 */
import { z } from 'zod';
import { DateTimeSchema } from '../public/common.schema.js';
import { PROVIDER_SLUGS, type ProviderSlug } from '../public/providers.schema.js';
import { MessageVersionSchema } from './common.schema.js';

export const RefreshIdSchema = z.string().regex(/^rfr_[A-Za-z0-9_-]{1,120}$/, 'Expected a refresh id (rfr_...)');

export const ValueSchema = z.strictObject({
  v: MessageVersionSchema,
  refresh_id: RefreshIdSchema,
  requested_at: DateTimeSchema,
});
export type Value = z.infer<typeof ValueSchema>;

export const keyOf = (_value: Value): string => 'refresh';

/** A refresh sequence's kind: a provider's passes (what moved) or its re-verification rounds. */
export type RefreshSequenceKind = 'pass' | 'round';

/**
 * Every refresh sequence: each provider's passes and its rounds. The planner runs each apart, and
 * a request is served once a run of every one of them has started and ended after it.
 */
export const REFRESH_SEQUENCES: ReadonlyArray<{ kind: RefreshSequenceKind; provider: ProviderSlug }> = (
  ['pass', 'round'] as const
).flatMap((kind) => PROVIDER_SLUGS.map((provider) => ({ kind, provider })));
