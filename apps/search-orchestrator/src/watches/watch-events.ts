/**
 * The watch matcher's rules (pure): which watches a job or company change concerns, and the
 * events it makes for them.
 *
 * - A change concerns a watch only if the watch is active, was made with a live key, subscribes
 *   to the event type, and has been active since no later than the change occurred (created, or
 *   last resumed, by then: a resumed watch never gets events for what happened while paused).
 * - Company watch: the job's company domain is the watch's domain and the watch's filters (if
 *   any) match. Search watch: the watch's filters match (`matchesFilters` of @jobs/job-filters).
 *   `posted_within_days`, counted back from the moment of the change, applies to openings only:
 *   a closing, re-listing or update of an older job still reaches the watch. A `closed` change is
 *   matched with closed jobs allowed (the job is closed by then).
 * - An update is judged against the job before it (`previous`) and after it: a job it brought
 *   into a watch's scope (a field filled in or changed, or the job reached a known company) is a
 *   new opening for that watch, `job.opened`; one it took out gets that `job.updated`, and no
 *   later event of the job (its closing included) reaches the watch while it stays out.
 * - The event id is derived from (watch id, change id): a redelivered or replayed change makes
 *   the same event, which the feed stores once and billing charges once. `created_at` is the
 *   moment of the change, so the rebuilt event is identical too.
 */
import { createHash } from 'node:crypto';
import type {
  CompanyHiringChanged,
  Event,
  EventOf,
  Filters,
  Job,
  JobLifecycleChanged,
  WatchEventType,
} from '@jobs/contracts';
import { matchesFilters } from '@jobs/job-filters';
import { isLive, type WatchRecord } from './watch.js';

/** `evt_` + 32 base64url characters of SHA-256(watch id, change id). */
export function watchEventId(watchId: string, changeId: string): string {
  return `evt_${createHash('sha256').update(`${watchId}\u0000${changeId}`).digest('base64url').slice(0, 32)}`;
}

const EVENT_OF_CHANGE: Record<JobLifecycleChanged.Value['change'], JobWatchEvent['type']> = {
  opened: 'job.opened',
  updated: 'job.updated',
  closed: 'job.closed',
  reposted: 'job.reposted',
};

export type JobWatchEvent = EventOf<'job.opened' | 'job.updated' | 'job.closed' | 'job.reposted'>;
export type HiringWatchEvent = EventOf<'company.hiring_started' | 'company.hiring_stopped'>;

export interface WatchEvent<E extends Event = Event> {
  watch: WatchRecord;
  event: E;
}

function concerns(watch: WatchRecord, type: WatchEventType, occurredAt: string): boolean {
  return isLive(watch) && watch.events.includes(type) && watch.activeSince.getTime() <= Date.parse(occurredAt);
}

/**
 * Whether the job (after the change) is in the watch's scope. `window: false` leaves out
 * `posted_within_days`: it picks the openings a watch announces, and a job the watch may have
 * announced stays its job when it closes, is re-listed or changes, however long ago it was first
 * seen (the window counts from then).
 */
export function jobInScope(
  watch: WatchRecord,
  change: JobLifecycleChanged.Value,
  { window = true }: { window?: boolean } = {},
): boolean {
  const { job } = change;
  if (watch.type === 'company' && (job.company.domain === null || job.company.domain !== watch.domain)) return false;
  const { posted_within_days: postedWithinDays, ...rest } = watch.filters ?? {};
  const filters: Filters = {
    ...rest,
    ...(window && postedWithinDays != null ? { posted_within_days: postedWithinDays } : {}),
    ...(change.change === 'closed' ? { include_closed: true } : {}),
  };
  return matchesFilters(job, filters, Date.parse(change.occurred_at));
}

/**
 * The job as filters saw it before the change: an update's `previous` values over the job; an
 * update naming `company` from a producer that sent no `previous` had a company without a domain;
 * any other change leaves the fields filters read as they were.
 */
export function jobBefore(change: JobLifecycleChanged.Value): Job {
  if (change.change !== 'updated') return change.job;
  if (change.previous) return { ...change.job, ...change.previous };
  if (change.changed_fields.includes('company'))
    return { ...change.job, company: { ...change.job.company, domain: null } };
  return change.job;
}

/**
 * How an update moved the job against the watch's scope (`window: false`): `entered` (it did not
 * match before: a new opening for this watch, `job.opened`), `left` (it matched before and no
 * longer does: the watch hears the change that took it out, `job.updated`, and nothing of the job
 * after it), `within`, or `null` when it is in scope neither before nor after.
 */
export function scopeMove(watch: WatchRecord, change: JobLifecycleChanged.Value): ScopeMove | null {
  const after = jobInScope(watch, change, { window: false });
  const previous = jobBefore(change);
  const before = previous === change.job ? after : jobInScope(watch, { ...change, job: previous }, { window: false });
  if (after) return before ? 'within' : 'entered';
  return before ? 'left' : null;
}
export type ScopeMove = 'entered' | 'left' | 'within';

/** The event type a change makes for a watch it moved as `move`. */
export function eventTypeFor(move: ScopeMove, change: JobLifecycleChanged.Value): JobWatchEvent['type'] {
  return move === 'entered' ? 'job.opened' : EVENT_OF_CHANGE[change.change];
}

/** The event one job change makes for one watch (the watch is assumed concerned), of `type` (`eventTypeFor`). */
export function jobEventFor(
  watch: WatchRecord,
  change: JobLifecycleChanged.Value,
  type: JobWatchEvent['type'],
): JobWatchEvent | null {
  const base = { id: watchEventId(watch.id, change.change_id), created_at: change.occurred_at, watch_id: watch.id };
  const { job } = change;
  switch (change.change) {
    case 'opened':
      return { ...base, type: 'job.opened', data: { job } };
    case 'updated':
      return { ...base, type: type === 'job.opened' ? 'job.opened' : 'job.updated', data: { job } };
    case 'closed':
      if (job.status !== 'closed' || job.closed_reason === null) return null;
      return {
        ...base,
        type: 'job.closed',
        data: {
          job: {
            id: job.id,
            title: job.title,
            company: job.company,
            status: 'closed',
            closed_reason: job.closed_reason,
          },
        },
      };
    case 'reposted':
      if (job.repost_count < 1) return null;
      return {
        ...base,
        type: 'job.reposted',
        data: {
          job: {
            id: job.id,
            title: job.title,
            company: job.company,
            status: job.status,
            repost_count: job.repost_count,
          },
        },
      };
  }
}

/**
 * What one job change makes for the watches, each judged once (`scopeMove`), in the order of
 * `watches`:
 * - `events`: every watch event; `leftScope` marks the update that took the job out of its watch;
 *   `heldOnly` an update of a watch that does not hear of updates, made only so that billing
 *   refreshes its `job.opened` of the job if held for credits (never sent);
 * - `openingsEnded`: the watches whose `job.opened` of the job, if held for credits, the change
 *   ends though they do not hear of it (subscribed to `job.opened` but not to the `job.closed` of
 *   a closing or the `job.updated` of an update that took the job out of them): billing drops the
 *   held event all the same, so a top-up never charges a job closed or no longer matching.
 */
export function matchJobChange(watches: readonly WatchRecord[], change: JobLifecycleChanged.Value): JobChangeMatch {
  const match: JobChangeMatch = { events: [], openingsEnded: [] };
  for (const watch of watches) {
    const move = scopeMove(watch, change);
    if (move === null) continue;
    const type = eventTypeFor(move, change);
    const ends = change.change === 'closed' || move === 'left';
    if (ends && !watch.events.includes(type) && concerns(watch, 'job.opened', change.occurred_at))
      match.openingsEnded.push(watch);
    if (type === 'job.opened' && !jobInScope(watch, change)) continue;
    const heldOnly =
      type === 'job.updated' &&
      move !== 'left' &&
      !watch.events.includes(type) &&
      concerns(watch, 'job.opened', change.occurred_at);
    if (!heldOnly && !concerns(watch, type, change.occurred_at)) continue;
    const event = jobEventFor(watch, change, type);
    if (event) match.events.push({ watch, event, leftScope: move === 'left', heldOnly });
  }
  return match;
}

export interface JobChangeMatch {
  events: JobWatchEventFor[];
  openingsEnded: WatchRecord[];
}

export interface JobWatchEventFor extends WatchEvent<JobWatchEvent> {
  leftScope: boolean;
  heldOnly: boolean;
}

/**
 * Every watch event one hiring change makes: company watches of that domain get
 * `company.hiring_started` (true) or `company.hiring_stopped` (false); a change to null
 * (unknown) fires nothing.
 */
export function eventsForHiringChange(
  watches: readonly WatchRecord[],
  change: CompanyHiringChanged.Value,
): WatchEvent<HiringWatchEvent>[] {
  const value = change.is_hiring.value;
  if (value === null) return [];
  const type = value ? 'company.hiring_started' : 'company.hiring_stopped';
  const out: WatchEvent<HiringWatchEvent>[] = [];
  for (const watch of watches) {
    if (
      watch.type !== 'company' ||
      watch.domain !== change.company.domain ||
      !concerns(watch, type, change.occurred_at)
    )
      continue;
    const base = { id: watchEventId(watch.id, change.change_id), created_at: change.occurred_at, watch_id: watch.id };
    const company = { id: change.company.id, name: change.company.name, domain: change.company.domain };
    const event: HiringWatchEvent = value
      ? { ...base, type: 'company.hiring_started', data: { company, is_hiring: { ...change.is_hiring, value: true } } }
      : {
          ...base,
          type: 'company.hiring_stopped',
          data: { company, is_hiring: { ...change.is_hiring, value: false } },
        };
    out.push({ watch, event });
  }
  return out;
}
