import { PROVIDER_SLUGS } from '@jobs/contracts';
import { deriveProviderStatus, PROVIDER_NAMES, PROVIDER_PROBES } from './provider-status.js';

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

describe('provider catalogue', () => {
  it('names and probes every one of the seven sources through its own path', () => {
    for (const slug of PROVIDER_SLUGS) {
      expect(PROVIDER_NAMES[slug]).toBeTruthy();
      expect(PROVIDER_PROBES[slug].path.startsWith(`/${slug}/`)).toBe(true);
    }
  });
});
