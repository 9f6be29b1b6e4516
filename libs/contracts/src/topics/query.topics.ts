import { defineTopic, SEARCH_PARTITIONS } from './topic-definition.js';
import * as BillingQueryRequested from '../messages/billing-query-requested.schema.js';
import * as DedupeQueryRequested from '../messages/dedupe-query-requested.schema.js';
import * as DispatcherQueryRequested from '../messages/dispatcher-query-requested.schema.js';
import * as OrchestratorQueryRequested from '../messages/orchestrator-query-requested.schema.js';
import * as QueryResponded from '../messages/query-responded.schema.js';

/** Request-reply reads and commands: the gateway asks a service's partition and waits for the answer. */
export const QUERY_TOPICS = {
  BillingQueryRequested: defineTopic({
    name: 'billing.query.requested',
    value: BillingQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: BillingQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['billing'],
    purpose:
      'A read of the ledger, a single-job charge (GET /jobs/{id}), ' +
      'or an admin account opening or top-up, for billing to answer ' +
      'now',
    keyReason: "Shares the account key of billing.page.charge.requested: one account's charges serialize",
  }),
  DedupeQueryRequested: defineTopic({
    name: 'dedupe.query.requested',
    value: DedupeQueryRequested.ValueSchema,
    key: 'query_id',
    keyOf: DedupeQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['dedupe'],
    purpose: 'A read of the canonical job store (one job by id, a company profile) for dedupe to answer now',
    keyReason: 'Reads need no order among themselves: spread evenly over partitions',
  }),
  OrchestratorQueryRequested: defineTopic({
    name: 'orchestrator.query.requested',
    value: OrchestratorQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: OrchestratorQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['search-orchestrator'],
    purpose:
      'Async search creation and reads, watch creation, listing, ' +
      'deletion and pause/resume, the webhook URLs they use, for ' +
      'the orchestrator to answer now',
    keyReason: "One account's commands and reads stay in order (a read after a create sees it)",
  }),
  DispatcherQueryRequested: defineTopic({
    name: 'dispatcher.query.requested',
    value: DispatcherQueryRequested.ValueSchema,
    key: 'account_id',
    keyOf: DispatcherQueryRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['gateway'],
    consumers: ['webhook-dispatcher'],
    purpose:
      'A read of the event feed (GET /events), a replay of one ' +
      'event (POST /webhooks/replay), or an endpoint signing secret ' +
      'to read or rotate, for the dispatcher to answer now',
    keyReason:
      'Shares the account key of event.emitted: a feed read or ' +
      "replay lands on the partition that stores the account's " +
      'events',
  }),
  QueryResponded: defineTopic({
    name: 'query.responded',
    value: QueryResponded.ValueSchema,
    key: 'query_id',
    keyOf: QueryResponded.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing', 'dedupe', 'search-orchestrator', 'webhook-dispatcher'],
    consumers: ['gateway'],
    purpose: 'The answer (result or error) to a query, for the gateway request waiting on it',
    keyReason: 'The answer follows its query id',
  }),
} as const;
