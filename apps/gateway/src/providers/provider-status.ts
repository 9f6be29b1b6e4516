import type { BreakerReport, CircuitState, ProviderSlug, ProviderStatus } from '@jobs/contracts';

/** What one health check of a provider saw. */
export type ProbeOutcome = { kind: 'answered'; latencyMs: number } | { kind: 'failed'; reason: 'error' | 'timeout' };

/** The latest known state of one provider, as every gateway replica reads it. */
export interface ProviderHealth {
  slug: ProviderSlug;
  status: ProviderStatus;
  /** The status an operator set (PUT /admin/providers); null when the setting could not be read. */
  admin_status: ProviderStatus | null;
  probe: ProbeOutcome;
  /** When the check started (orders concurrent checks: an older one never overwrites a newer one). */
  started_ms: number;
  last_checked_at: string;
}

/**
 * A provider's public status. The operator's setting wins when it says something is wrong; then
 * the fetchers' circuit breaker, which sees every real search: open (searches are refused the
 * provider) is `down`, half-open (the cool-down is over, the next call is a trial) at least
 * `degraded` (`down` when the check fails too); otherwise the live check decides: no answer or a
 * failing one is `down`, a slow one `degraded`.
 */
export function deriveProviderStatus(
  adminStatus: ProviderStatus | null,
  probe: ProbeOutcome,
  slowMs: number,
  breaker: CircuitState | null = null,
): ProviderStatus {
  if (adminStatus !== null && adminStatus !== 'operational') return adminStatus;
  if (breaker === 'open') return 'down';
  const checked = probe.kind === 'failed' ? 'down' : probe.latencyMs > slowMs ? 'degraded' : 'operational';
  if (breaker === 'half_open' && checked === 'operational') return 'degraded';
  return checked;
}

const CIRCUIT_RANK: Readonly<Record<CircuitState, number>> = { closed: 0, half_open: 1, open: 2 };

/** A report's state at `nowMs`: an open breaker whose cool-down is over is half-open by now. */
export function circuitAt(report: BreakerReport, nowMs: number): CircuitState {
  if (report.state === 'open' && report.retry_at_ms !== null && report.retry_at_ms <= nowMs) return 'half_open';
  return report.state;
}

/**
 * One provider's breaker state over every fetcher replica: the worst state among the reports
 * written within the last `maxAgeMs` (open > half_open > closed), because a search can land on
 * any replica. Null when no replica reported lately (no fetcher running): the check decides.
 */
export function worstCircuit(reports: readonly BreakerReport[], nowMs: number, maxAgeMs: number): CircuitState | null {
  let worst: CircuitState | null = null;
  for (const report of reports) {
    if (report.reported_ms < nowMs - maxAgeMs) continue;
    const state = circuitAt(report, nowMs);
    if (worst === null || CIRCUIT_RANK[state] > CIRCUIT_RANK[worst]) worst = state;
  }
  return worst;
}
