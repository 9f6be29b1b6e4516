import {
  BREAKER_REPORT_INTERVAL_MS,
  BREAKER_REPORT_MAX_AGE_MS,
  BreakerReportSchema,
  providerBreakerKey,
} from './provider-breaker.schema.js';

const report = {
  provider: 'provider_d',
  instance: 'provider-fetcher-host-1',
  state: 'open',
  since_ms: 1_000,
  retry_at_ms: 11_000,
  reported_ms: 1_500,
} as const;

describe('breaker report', () => {
  it('parses a report and survives a JSON round trip', () => {
    expect(BreakerReportSchema.parse(JSON.parse(JSON.stringify(report)))).toEqual(report);
  });

  it('refuses an unknown state, provider or extra field', () => {
    expect(BreakerReportSchema.safeParse({ ...report, state: 'ajar' }).success).toBe(false);
    expect(BreakerReportSchema.safeParse({ ...report, provider: 'provider_z' }).success).toBe(false);
    expect(BreakerReportSchema.safeParse({ ...report, extra: 1 }).success).toBe(false);
  });

  it('has one key per provider, and reports outlive several report intervals', () => {
    expect(providerBreakerKey('provider_a')).not.toBe(providerBreakerKey('provider_b'));
    expect(BREAKER_REPORT_MAX_AGE_MS).toBeGreaterThanOrEqual(3 * BREAKER_REPORT_INTERVAL_MS);
  });
});
