/**
 * One valid example of each main contract object, typed by the contract. Used by this library's
 * specs (every example must parse) and handy as a base for other projects' tests:
 * `{ ...examples.job(), status: 'closed', closed_reason: 'filled' }`.
 * Each call returns a fresh copy. The examples live per workflow in examples/.
 */
import type { DeadLetter } from './messages/index.js';
import {
  asyncChunkChargeRequested,
  asyncChunkCharged,
  asyncChunkDeduplicated,
  asyncChunkFetched,
  asyncChunkRequested,
} from './examples/async-search.examples.js';
import { job, metadata, normalizedRecord, searchResponse, T0 } from './examples/public.examples.js';
import {
  billingQueryRequested,
  dedupeQueryRequested,
  dispatcherQueryRequested,
  orchestratorQueryRequested,
  queryResponded,
} from './examples/query.examples.js';
import {
  refreshFetchRequested,
  refreshBoardFetchRequested,
  refreshPassFetchRequested,
  refreshPassRecordsFetched,
  refreshRecordsFetched,
  refreshRequested,
} from './examples/refresh.examples.js';
import {
  billingPageChargeRequested,
  ownIndexQueryRequested,
  providerFetchRequested,
  providerRecordsFetched,
  searchPageCharged,
  searchPageGathered,
  searchRecordsDeduplicated,
  searchRequested,
  searchResponded,
} from './examples/sync-search.examples.js';
import {
  accountCreditsAdded,
  companyHiringChanged,
  eventChargeRequested,
  eventEmitted,
  jobLifecycleChanged,
} from './examples/watch.examples.js';

function deadLetter(): DeadLetter.Value {
  return {
    v: 1,
    topic: 'search.requested',
    partition: 4,
    offset: '1024',
    key: 'req_123',
    value: '{"v":2}',
    error: 'v: Invalid input: expected 1',
    failed_at: T0,
    consumer_group: 'search-orchestrator',
  };
}

export const examples = {
  job,
  metadata,
  searchResponse,
  normalizedRecord,
  searchRequested,
  providerFetchRequested,
  ownIndexQueryRequested,
  providerRecordsFetched,
  searchRecordsDeduplicated,
  searchPageGathered,
  billingPageChargeRequested,
  searchPageCharged,
  searchResponded,
  eventEmitted,
  billingQueryRequested,
  dedupeQueryRequested,
  queryResponded,
  deadLetter,
  jobLifecycleChanged,
  companyHiringChanged,
  refreshRequested,
  refreshFetchRequested,
  refreshPassFetchRequested,
  refreshBoardFetchRequested,
  refreshPassRecordsFetched,
  refreshRecordsFetched,
  eventChargeRequested,
  accountCreditsAdded,
  orchestratorQueryRequested,
  dispatcherQueryRequested,
  asyncChunkRequested,
  asyncChunkFetched,
  asyncChunkDeduplicated,
  asyncChunkChargeRequested,
  asyncChunkCharged,
} as const;
