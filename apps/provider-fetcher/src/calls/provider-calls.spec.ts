import { examples } from '@jobs/contracts';
import type { Logger } from '@jobs/observability';
import type { ProviderAdapter } from '@jobs/provider-adapters';
import { ProviderCalls } from './provider-calls.js';

const logger = { warn: () => undefined } as unknown as Logger;
const record = { ...examples.normalizedRecord(), provider: 'provider_a' as const };

describe('ProviderCalls', () => {
  const calls = (search: ProviderAdapter['search']) => new ProviderCalls([{ provider: 'provider_a', search }], logger);

  it('answers the records of a provider that answers in time', async () => {
    await expect(
      calls(async () => [record]).call('provider_a', { filters: {}, want: 5 }, Date.now() + 1000, {}),
    ).resolves.toEqual({ outcome: 'ok', records: [record] });
  });

  it('is an error for a provider it has no adapter for, or one that fails', async () => {
    await expect(
      calls(async () => [record]).call('provider_b', { filters: {}, want: 5 }, Date.now() + 1000, {}),
    ).resolves.toEqual({ outcome: 'provider_error', records: [] });
    await expect(
      calls(async () => Promise.reject(new Error('503'))).call(
        'provider_a',
        { filters: {}, want: 5 },
        Date.now() + 1000,
        {},
      ),
    ).resolves.toEqual({ outcome: 'provider_error', records: [] });
  });

  it(
    'is a timeout when the deadline passed before the call or ' + 'during it, and never calls a provider past it',
    async () => {
      let called = false;
      const late = calls(async () => {
        called = true;
        return [record];
      });
      await expect(late.call('provider_a', { filters: {}, want: 5 }, Date.now() - 1, {})).resolves.toEqual({
        outcome: 'provider_timeout',
        records: [],
      });
      expect(called).toBe(false);
      const hanging = calls(
        ({ signal }) => new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
      );
      await expect(hanging.call('provider_a', { filters: {}, want: 5 }, Date.now() + 50, {})).resolves.toEqual({
        outcome: 'provider_timeout',
        records: [],
      });
    },
  );
});
