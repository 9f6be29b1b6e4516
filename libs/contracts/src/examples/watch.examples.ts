/** The event feed and watches: an event, what watches match, a charged watch event, a top-up. */
import type {
  AccountCreditsAdded,
  CompanyHiringChanged,
  EventChargeRequested,
  EventEmitted,
  JobLifecycleChanged,
} from '../messages/index.js';
import { job, T0 } from './public.examples.js';

export function eventEmitted(): EventEmitted.Value {
  return {
    v: 1,
    account_id: 'acc_demo',
    event: {
      id: 'evt_1',
      type: 'search.completed',
      created_at: '2026-11-22T08:00:00Z',
      watch_id: null,
      data: { search: { id: 'srch_1', status: 'completed', jobs_found: 3 } },
    },
    webhook_url: 'https://hooks.example.com/jobs',
    mode: 'live',
  };
}

export function jobLifecycleChanged(): JobLifecycleChanged.Value {
  return { v: 1, change_id: 'chg_1', change: 'updated', changed_fields: ['salary'], job: job(), occurred_at: T0 };
}

export function companyHiringChanged(): CompanyHiringChanged.Value {
  return {
    v: 1,
    change_id: 'chg_2',
    company: { id: 'cmp_acme', name: 'Acme Ltd', domain: 'acme.example' },
    is_hiring: { value: true, confidence: 0.9, basis: '3 open jobs seen by 2 providers in the last day' },
    previous: null,
    occurred_at: T0,
  };
}

export function eventChargeRequested(): EventChargeRequested.EventCharge {
  return {
    v: 1,
    account_id: 'acc_demo',
    event: { id: 'evt_2', type: 'job.opened', created_at: T0, watch_id: 'wat_1', data: { job: job() } },
    webhook_url: 'https://hooks.example.com/jobs',
  };
}

export function accountCreditsAdded(): AccountCreditsAdded.Value {
  return { v: 1, account_id: 'acc_demo', amount: 100, credits_remaining: 140, added_at: T0 };
}
