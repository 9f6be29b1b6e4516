import { examples } from '../examples.js';
import * as AsyncChunkRequested from './async-chunk-requested.schema.js';

describe('async.chunk.requested', () => {
  const value = examples.asyncChunkRequested;
  const ownIndex = () => ({
    ...value(),
    provider: 'own_index' as const,
    from: { kind: 'store' as const, after: null },
    index_scope: { providers_routable: ['own_index' as const, 'provider_a' as const] },
  });

  it("carries a consensus search's min_sources for the own index's store only", () => {
    expect(AsyncChunkRequested.ValueSchema.safeParse({ ...ownIndex(), min_sources: 2 }).success).toBe(true);
    const partner = AsyncChunkRequested.ValueSchema.safeParse({ ...value(), min_sources: 2 });
    expect(partner.success).toBe(false);
    expect(partner.error?.issues[0]?.path).toEqual(['min_sources']);
  });

  it('keeps min_sources within the waterfall limits', () => {
    expect(AsyncChunkRequested.ValueSchema.safeParse({ ...ownIndex(), min_sources: 1 }).success).toBe(false);
    expect(AsyncChunkRequested.ValueSchema.safeParse({ ...ownIndex(), min_sources: 8 }).success).toBe(false);
  });
});
