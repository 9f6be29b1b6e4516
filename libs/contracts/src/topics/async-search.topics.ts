import { defineTopic, SEARCH_PARTITIONS } from './topic-definition.js';
import * as AsyncChunkChargeRequested from '../messages/async-chunk-charge-requested.schema.js';
import * as AsyncChunkCharged from '../messages/async-chunk-charged.schema.js';
import * as AsyncChunkDeduplicated from '../messages/async-chunk-deduplicated.schema.js';
import * as AsyncChunkFetched from '../messages/async-chunk-fetched.schema.js';
import * as AsyncChunkRequested from '../messages/async-chunk-requested.schema.js';

/** An async search: one provider's chunks at a time, merged, collected and charged as collected. */
export const ASYNC_SEARCH_TOPICS = {
  AsyncChunkRequested: defineTopic({
    name: 'async.chunk.requested',
    value: AsyncChunkRequested.ValueSchema,
    key: 'search_id:provider',
    keyOf: AsyncChunkRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['provider-fetcher'],
    purpose: "One chunk of an async search's collection: one provider's pages from a resumable position",
    keyReason:
      "One provider's chunks of a search stay in order, while the " +
      "search's providers are read side by side on several fetcher " +
      'partitions',
  }),
  AsyncChunkFetched: defineTopic({
    name: 'async.chunk.fetched',
    value: AsyncChunkFetched.ValueSchema,
    key: 'search_id:provider',
    keyOf: AsyncChunkFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One chunk's normalized records (or its failure, or an " +
      "own-index store page to answer) and the provider's next " +
      'position',
    keyReason:
      "One provider's chunks of a search merge in order on one " +
      "dedupe partition, while the search's providers merge side by " +
      'side',
  }),
  AsyncChunkDeduplicated: defineTopic({
    name: 'async.chunk.deduplicated',
    value: AsyncChunkDeduplicated.ValueSchema,
    key: 'search_id',
    keyOf: AsyncChunkDeduplicated.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose:
      'The canonical jobs one chunk resolved to, with merge counts ' +
      'and the next position, for the orchestrator to collect',
    keyReason: 'Results of one async search return to the orchestrator partition that collects it',
  }),
  AsyncChunkChargeRequested: defineTopic({
    name: 'async.chunk.charge.requested',
    value: AsyncChunkChargeRequested.ValueSchema,
    key: 'account_id',
    keyOf: AsyncChunkChargeRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator'],
    consumers: ['billing'],
    purpose:
      "An async search's newly collected jobs to charge as collected, up to the balance and the search's max_credits",
    keyReason: "Shares the account key of billing's other inputs: one account's charges serialize",
  }),
  AsyncChunkCharged: defineTopic({
    name: 'async.chunk.charged',
    value: AsyncChunkCharged.ValueSchema,
    key: 'search_id',
    keyOf: AsyncChunkCharged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing'],
    consumers: ['search-orchestrator'],
    purpose:
      'Which jobs of a charge batch were collected (charged or ' +
      'already paid) and whether credits or max_credits stopped it',
    keyReason: 'The answer follows its search to the orchestrator partition that collects it',
  }),
} as const;
