import { PROVIDER_SLUGS } from '@jobs/contracts';
import { createProviderAdapters } from './adapters.js';
import { ResilientAdapter } from './resilient-adapter.js';

describe('createProviderAdapters', () => {
  it("gives every provider of the registry its adapter, behind its breaker, in the registry's order", () => {
    const adapters = createProviderAdapters('http://127.0.0.1:1');
    expect(adapters.map((adapter) => adapter.provider)).toEqual([...PROVIDER_SLUGS]);
    for (const adapter of adapters) expect(adapter).toBeInstanceOf(ResilientAdapter);
  });
});
