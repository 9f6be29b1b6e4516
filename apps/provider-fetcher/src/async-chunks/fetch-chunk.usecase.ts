import { Injectable } from '@nestjs/common';
import { Topics, type AsyncChunkFetched, type AsyncChunkRequested, type ChunkPosition } from '@jobs/contracts';
import { KafkaPublisher } from '@jobs/nest-kafka';
import type { ResumablePaging } from '@jobs/provider-adapters';
import { ProviderCalls } from '../calls/provider-calls.js';

/**
 * Pages of one chunk asked side by side where the provider's pages are addressed by number or
 * offset: a chunk of a provider with small, slow pages takes about one page's time, not one per page.
 */
export const CHUNK_PARALLEL_PAGES = 8;

/**
 * Reads one chunk of an async search from one provider: whole pages from the chunk's position
 * until `want` records are in, within the chunk's deadline, and hands the records and the next
 * position to dedupe. The own index's crawler pages come first; once they end, the next chunk is
 * a store page (no call here: dedupe answers it from the canonical store). A failure or a
 * timeout carries no records and keeps the position, so the orchestrator can try the chunk again.
 */
@Injectable()
export class FetchChunkUseCase {
  constructor(
    private readonly calls: ProviderCalls,
    private readonly publisher: KafkaPublisher,
  ) {}

  async execute(message: AsyncChunkRequested.Value): Promise<void> {
    const started = Date.now();
    const reply = (
      fields: Pick<AsyncChunkFetched.Value, 'outcome' | 'records' | 'next'> &
        Partial<Pick<AsyncChunkFetched.Value, 'index_query'>>,
    ) =>
      this.publisher.publish(Topics.AsyncChunkFetched, {
        v: 1,
        search_id: message.search_id,
        provider: message.provider,
        chunk: message.chunk,
        attempt: message.attempt,
        latency_ms: Date.now() - started,
        fetched_at: new Date().toISOString(),
        ...fields,
      });
    if (message.from.kind === 'store') {
      // the own index's store phase: dedupe reads the page and decides the next position
      return reply({
        outcome: 'ok',
        records: [],
        next: null,
        index_query: {
          filters: message.filters,
          scope: message.index_scope!,
          want: message.want,
          after: message.from.after,
          as_of: message.as_of,
          ...(message.min_sources !== undefined ? { min_sources: message.min_sources } : {}),
        },
      });
    }
    const paging: ResumablePaging = { start: message.from.page };
    const { outcome, records } = await this.calls.call(
      message.provider,
      {
        filters: message.filters,
        want: message.want,
        paging,
        asOf: message.as_of,
        parallelPages: CHUNK_PARALLEL_PAGES,
      },
      started + message.timeout_ms,
      { search_id: message.search_id, chunk: message.chunk, attempt: message.attempt },
    );
    if (outcome !== 'ok') return reply({ outcome, records: [], next: message.from });
    return reply({ outcome, records, next: nextPosition(message.provider, paging.next ?? null) });
  }
}

/** After a provider's last page: nothing more, except the own index, whose store is read next. */
export function nextPosition(
  provider: AsyncChunkRequested.Value['provider'],
  page: ResumablePaging['next'],
): ChunkPosition | null {
  if (page) return { kind: 'pages', page };
  return provider === 'own_index' ? { kind: 'store', after: null } : null;
}
