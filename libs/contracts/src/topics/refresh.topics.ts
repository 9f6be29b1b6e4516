import { defineTopic, SEARCH_PARTITIONS } from './topic-definition.js';
import * as RefreshFetchRequested from '../messages/refresh-fetch-requested.schema.js';
import * as RefreshRecordsFetched from '../messages/refresh-records-fetched.schema.js';
import * as RefreshRequested from '../messages/refresh-requested.schema.js';

/** The refresh sweeps that keep the job store current: passes (what moved) and re-verification rounds. */
export const REFRESH_TOPICS = {
  RefreshRequested: defineTopic({
    name: 'refresh.requested',
    value: RefreshRequested.ValueSchema,
    key: '"refresh"',
    keyOf: RefreshRequested.keyOf,
    partitions: 1,
    producers: ['gateway'],
    consumers: ['dedupe'],
    purpose:
      'An operator asked for a refresh now (POST /admin/refresh): ' +
      "every provider's next pass and next re-verification round " +
      'serve it',
    keyReason: 'Requests are rare and global: one partition, one planner at a time',
  }),
  RefreshPassFetchRequested: defineTopic({
    name: 'refresh.pass.fetch.requested',
    value: RefreshFetchRequested.ValueSchema,
    key: 'provider',
    keyOf: RefreshFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['provider-fetcher'],
    purpose:
      "One sweep of a refresh pass (what moved): a partner's new " +
      "listings or the own crawler's change feed, read to the end",
    keyReason:
      "A provider's sweeps take a bounded share of its calls beside " +
      "live searches; a topic apart from the rounds', so a pass " +
      'never waits behind a round at the fetcher',
  }),
  RefreshBoardFetchRequested: defineTopic({
    name: 'refresh.board.fetch.requested',
    value: RefreshFetchRequested.ValueSchema,
    key: 'scope.key',
    keyOf: RefreshFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['provider-fetcher'],
    purpose:
      "One board sweep of the own crawler's pass: one conditional GET of a registered ATS board " +
      '(Greenhouse, Lever, Ashby), its openings read whole',
    keyReason:
      "Boards spread over the partitions; a topic apart from the partners' pass sweeps, so boards " +
      "waiting for their ATS host's request slots never hold a partner's sweep, and wait in Kafka " +
      'rather than spending their sweep budget in the fetcher',
  }),
  RefreshPassRecordsFetched: defineTopic({
    name: 'refresh.pass.records.fetched',
    value: RefreshRecordsFetched.ValueSchema,
    key: 'provider',
    keyOf: RefreshRecordsFetched.passKeyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One part of a pass's sweep (new listings or the own " +
      "crawler's changes), for merging: new openings, updates, " +
      "re-listings, the crawler's closures",
    keyReason:
      "A sweep's parts merge in order, a pass's providers side by " +
      "side; a topic apart from the rounds', so a pass never waits " +
      "behind a round's merges",
  }),
  RefreshFetchRequested: defineTopic({
    name: 'refresh.fetch.requested',
    value: RefreshFetchRequested.ValueSchema,
    key: 'provider',
    keyOf: RefreshFetchRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['provider-fetcher'],
    purpose:
      "One sweep of a re-verification round: the own crawler's whole listing or a batch of companies, read to the end",
    keyReason: "A provider's sweeps take a bounded share of its calls beside live searches",
  }),
  RefreshRecordsFetched: defineTopic({
    name: 'refresh.records.fetched',
    value: RefreshRecordsFetched.ValueSchema,
    key: '"refresh:sweeps"',
    keyOf: RefreshRecordsFetched.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['provider-fetcher'],
    consumers: ['dedupe'],
    purpose:
      "One part of a round's sweep (the last says whether the " +
      'listing was read whole), for merging and lifecycle decisions',
    keyReason:
      "One partition: a sweep's parts merge in order before its " +
      "absences are judged, and a round's merges hold one of " +
      "dedupe's slots, so live searches keep the rest",
  }),
} as const;

/**
 * The topics of a refresh sweep: a pass's (what moved) apart from a round's (re-verification),
 * each consumed by a group of its own at the fetcher and in dedupe: kafkajs fetches again only
 * once every batch of its last fetch is handled, so sharing a group would hold a pass's sweeps
 * behind a round's slowest one.
 */
export function refreshTopicsOf(kind: RefreshFetchRequested.Value['kind']) {
  if (kind === 'board')
    return { fetch: REFRESH_TOPICS.RefreshBoardFetchRequested, records: REFRESH_TOPICS.RefreshPassRecordsFetched };
  return RefreshFetchRequested.isPassSweep(kind)
    ? { fetch: REFRESH_TOPICS.RefreshPassFetchRequested, records: REFRESH_TOPICS.RefreshPassRecordsFetched }
    : { fetch: REFRESH_TOPICS.RefreshFetchRequested, records: REFRESH_TOPICS.RefreshRecordsFetched };
}
