import { defineTopic, SEARCH_PARTITIONS } from './topic-definition.js';
import * as AccountCreditsAdded from '../messages/account-credits-added.schema.js';
import * as CompanyHiringChanged from '../messages/company-hiring-changed.schema.js';
import * as EventChargeRequested from '../messages/event-charge-requested.schema.js';
import * as EventEmitted from '../messages/event-emitted.schema.js';
import * as JobLifecycleChanged from '../messages/job-lifecycle-changed.schema.js';

/** The event feed: every event an account sees, stored and delivered by the webhook dispatcher. */
export const EVENT_FEED_TOPICS = {
  EventEmitted: defineTopic({
    name: 'event.emitted',
    value: EventEmitted.ValueSchema,
    key: 'account_id',
    keyOf: EventEmitted.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator', 'billing'],
    consumers: ['webhook-dispatcher'],
    purpose:
      'Every event for the feed and webhook delivery: free watch ' +
      'events and search.completed (orchestrator), charged ' +
      'job.opened (billing)',
    keyReason: "One account's events enter its feed in the order they happened (deliveries may overtake)",
  }),
} as const;

/** What watches match: changes of canonical jobs and of companies' hiring, from dedupe. */
export const WATCH_TOPICS = {
  JobLifecycleChanged: defineTopic({
    name: 'job.lifecycle.changed',
    value: JobLifecycleChanged.ValueSchema,
    key: 'job_id',
    keyOf: JobLifecycleChanged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose:
      'One change of a canonical job (opened, updated, closed, reposted) with the job after it, for the watch matcher',
    keyReason: "One job's changes stay in the order dedupe made them",
  }),
  CompanyHiringChanged: defineTopic({
    name: 'company.hiring.changed',
    value: CompanyHiringChanged.ValueSchema,
    key: 'company domain',
    keyOf: CompanyHiringChanged.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['dedupe'],
    consumers: ['search-orchestrator'],
    purpose: "A company's is_hiring value changed (true, false or null), for company watches",
    keyReason: "One company's hiring changes stay in order",
  }),
} as const;

/** Charging watch events, and releasing what waited for credits once an account is topped up. */
export const WATCH_CHARGE_TOPICS = {
  EventChargeRequested: defineTopic({
    name: 'event.charge.requested',
    value: EventChargeRequested.ValueSchema,
    key: 'account_id',
    keyOf: EventChargeRequested.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['search-orchestrator', 'billing'],
    consumers: ['billing'],
    purpose:
      'A watch event billing decides on: job.opened to charge (1 ' +
      'credit unless paid) and then emit; job.updated to emit only ' +
      'if the account paid for the job; job.closed to emit after ' +
      "dropping the job's held job.opened; or a watch paused or " +
      'deleted, whose job.opened events not yet charged are dropped (held ones, and those made ' +
      "before the stop that arrive after it); or, from billing, the account's credits rose: its " +
      'held job.opened events are released behind the stops queued before',
    keyReason:
      "Shares the account key of billing's other inputs: one " +
      "account's charges serialize, and a job.updated is decided " +
      "after the account's earlier job.opened",
  }),
  AccountCreditsAdded: defineTopic({
    name: 'account.credits.added',
    value: AccountCreditsAdded.ValueSchema,
    key: 'account_id',
    keyOf: AccountCreditsAdded.keyOf,
    partitions: SEARCH_PARTITIONS,
    producers: ['billing'],
    consumers: ['search-orchestrator'],
    purpose: 'Credits were added to an account: on_hold searches resume',
    keyReason: "One account's top-ups stay in order",
  }),
} as const;
