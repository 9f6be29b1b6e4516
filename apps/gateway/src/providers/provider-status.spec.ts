import type { BreakerReport } from '@jobs/contracts';
import { circuitAt, deriveProviderStatus, worstCircuit } from './provider-status.js';

const fast = { kind: 'answered', latencyMs: 120 } as const;
const slow = { kind: 'answered', latencyMs: 2500 } as const;

describe('deriveProviderStatus', () => {
  it('is operational when the operator says so and the provider answers in time', () => {
    expect(deriveProviderStatus('operational', fast, 1500)).toBe('operational');
  });

  it('reports the operator status whenever it is not operational, whatever the check saw', () => {
    expect(deriveProviderStatus('down', fast, 1500)).toBe('down');
    expect(deriveProviderStatus('degraded', fast, 1500)).toBe('degraded');
    expect(deriveProviderStatus('degraded', { kind: 'failed', reason: 'error' }, 1500)).toBe('degraded');
  });

  it('is down when the provider fails or does not answer in time', () => {
    expect(deriveProviderStatus('operational', { kind: 'failed', reason: 'error' }, 1500)).toBe('down');
    expect(deriveProviderStatus('operational', { kind: 'failed', reason: 'timeout' }, 1500)).toBe('down');
  });

  it('is degraded when the answer is slower than the threshold, not at it', () => {
    expect(deriveProviderStatus('operational', slow, 1500)).toBe('degraded');
    expect(deriveProviderStatus('operational', { kind: 'answered', latencyMs: 1500 }, 1500)).toBe('operational');
  });

  it('falls back to the check alone when the operator setting is unknown', () => {
    expect(deriveProviderStatus(null, fast, 1500)).toBe('operational');
    expect(deriveProviderStatus(null, { kind: 'failed', reason: 'timeout' }, 1500)).toBe('down');
  });
});

describe('deriveProviderStatus with the circuit breaker', () => {
  const failed = { kind: 'failed', reason: 'error' } as const;

  it(
    'is down while the breaker is open and degraded while it is ' +
      'half-open, even when the check saw a healthy provider',
    () => {
      expect(deriveProviderStatus('operational', fast, 1500, 'open')).toBe('down');
      expect(deriveProviderStatus('operational', fast, 1500, 'half_open')).toBe('degraded');
      expect(deriveProviderStatus(null, fast, 1500, 'open')).toBe('down');
    },
  );

  it('leaves it to the check when the breaker is closed or nobody reported one', () => {
    expect(deriveProviderStatus('operational', fast, 1500, 'closed')).toBe('operational');
    expect(deriveProviderStatus('operational', failed, 1500, 'closed')).toBe('down');
    expect(deriveProviderStatus('operational', slow, 1500, 'closed')).toBe('degraded');
    expect(deriveProviderStatus('operational', fast, 1500, null)).toBe('operational');
  });

  it('lets a check that failed say down while the breaker is only half-open', () => {
    expect(deriveProviderStatus('operational', failed, 1500, 'half_open')).toBe('down');
    expect(deriveProviderStatus('operational', slow, 1500, 'half_open')).toBe('degraded');
  });

  it('still reports the operator status first', () => {
    expect(deriveProviderStatus('degraded', fast, 1500, 'open')).toBe('degraded');
    expect(deriveProviderStatus('down', fast, 1500, 'closed')).toBe('down');
  });
});

describe('worstCircuit over the fetcher replicas', () => {
  const now = 100_000;
  const report = (
    instance: string,
    state: BreakerReport['state'],
    reportedAgoMs: number,
    retryAtMs: number | null = null,
  ): BreakerReport => ({
    provider: 'provider_d',
    instance,
    state,
    since_ms: now - 60_000,
    retry_at_ms: state === 'open' ? (retryAtMs ?? now + 5_000) : null,
    reported_ms: now - reportedAgoMs,
  });

  it('takes the worst state reported within the max age', () => {
    expect(worstCircuit([report('a', 'closed', 0), report('b', 'open', 1_000)], now, 10_000)).toBe('open');
    expect(worstCircuit([report('a', 'half_open', 0), report('b', 'closed', 1_000)], now, 10_000)).toBe('half_open');
    expect(worstCircuit([report('a', 'closed', 0), report('b', 'closed', 9_000)], now, 10_000)).toBe('closed');
  });

  it('ignores reports older than the max age (a replica that died)', () => {
    expect(worstCircuit([report('a', 'closed', 0), report('dead', 'open', 10_001)], now, 10_000)).toBe('closed');
    expect(worstCircuit([report('dead', 'open', 30_000)], now, 10_000)).toBeNull();
    expect(worstCircuit([], now, 10_000)).toBeNull();
  });

  it('counts an open breaker whose cool-down is over as half-open', () => {
    expect(circuitAt(report('a', 'open', 0, now), now)).toBe('half_open');
    expect(circuitAt(report('a', 'open', 0, now + 1), now)).toBe('open');
    expect(worstCircuit([report('a', 'open', 3_000, now - 1), report('b', 'closed', 0)], now, 10_000)).toBe(
      'half_open',
    );
  });
});
