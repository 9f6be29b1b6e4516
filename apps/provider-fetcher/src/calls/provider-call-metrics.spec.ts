import { CircuitOpenError } from '@jobs/provider-adapters';
import { providerCallLabel } from './provider-call-metrics.js';

describe('providerCallLabel', () => {
  it('tells a refused call of an open circuit from a failed one', () => {
    expect(providerCallLabel('ok')).toBe('ok');
    expect(providerCallLabel('provider_timeout', new Error('aborted'))).toBe('timeout');
    expect(providerCallLabel('provider_error', new Error('503'))).toBe('error');
    expect(providerCallLabel('provider_error', new CircuitOpenError('provider_b'))).toBe('breaker_open');
  });
});
