/**
 * Shared state in Redis (not a Kafka message, but a contract between two services all the
 * same): each provider-fetcher replica reports the circuit breaker state of every provider it
 * calls, and the gateway folds the reports into the provider `status` of `GET /v1/providers`.
 *
 * Layout: one hash per provider, `providerBreakerKey(slug)`, one field per fetcher replica
 * (its instance id) holding a `BreakerReport` as JSON. A replica re-reports every
 * `BREAKER_REPORT_INTERVAL_MS` and at once on every change; each write drops the fields older
 * than `BREAKER_REPORT_MAX_AGE_MS` and sets the key to expire after that long, so the state of a
 * replica that died fades out, and the whole key disappears when no fetcher is left.
 *
 * Rule for several replicas (docs/decisions/0019-provider-status.md): the worst state any replica reported
 * within the last `BREAKER_REPORT_MAX_AGE_MS` counts (open > half_open > closed): a search can
 * land on any replica, so one replica refusing the provider is already felt by customers.
 */
import { z } from 'zod';
import { ProviderSlugSchema } from '../public/providers.schema.js';

export const CircuitStateSchema = z.enum(['closed', 'half_open', 'open']);
export type CircuitState = z.infer<typeof CircuitStateSchema>;

const EpochMs = z.number().int().min(0);

export const BreakerReportSchema = z.strictObject({
  provider: ProviderSlugSchema,
  /** The fetcher replica that reported (its instance id). */
  instance: z.string().min(1),
  state: CircuitStateSchema,
  /** Since when the breaker has been in this state (epoch ms). */
  since_ms: EpochMs,
  /** An open breaker lets a trial call through from then on (it is half-open then); null unless open. */
  retry_at_ms: EpochMs.nullable(),
  /** When the replica wrote this report (epoch ms); older than the max age, it no longer counts. */
  reported_ms: EpochMs,
});
export type BreakerReport = z.infer<typeof BreakerReportSchema>;

export const providerBreakerKey = (provider: z.infer<typeof ProviderSlugSchema>): string =>
  `provider-breaker:${provider}`;

/** How often a fetcher replica re-reports the state of every breaker (and at once on a change). */
export const BREAKER_REPORT_INTERVAL_MS = 2_000;
/** Reports older than this no longer count, and the key of a provider nobody reports expires. */
export const BREAKER_REPORT_MAX_AGE_MS = 10_000;
