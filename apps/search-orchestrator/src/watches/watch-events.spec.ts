import { EventSchema, examples, type JobLifecycleChanged, type CompanyHiringChanged } from '@jobs/contracts';
import { eventsForHiringChange, jobInScope, matchJobChange, watchEventId } from './watch-events.js';
import type { WatchRecord } from './watch.js';

/** The watch events one job change makes (what `matchJobChange` ends aside). */
const eventsForJobChange = (...args: Parameters<typeof matchJobChange>) => matchJobChange(...args).events;

const CHANGE_AT = '2026-10-01T12:00:00.000Z';

/** A watch active since its creation unless `activeSince` says it was resumed later. */
function watch(overrides: Partial<WatchRecord> = {}): WatchRecord {
  const createdAt = overrides.createdAt ?? new Date('2026-09-30T12:00:00.000Z');
  return {
    id: 'wat_company',
    accountId: 'acc_1',
    type: 'company',
    domain: 'acme.example',
    filters: null,
    webhookUrl: 'https://hooks.example.com/jobs',
    events: [
      'job.opened',
      'job.updated',
      'job.closed',
      'job.reposted',
      'company.hiring_started',
      'company.hiring_stopped',
    ],
    status: 'active',
    mode: 'live',
    providersEnabled: ['own_index', 'provider_a'],
    createdAt,
    activeSince: createdAt,
    ...overrides,
  };
}

function change(
  kind: JobLifecycleChanged.Value['change'],
  overrides: Partial<JobLifecycleChanged.Value> = {},
): JobLifecycleChanged.Value {
  const base = examples.jobLifecycleChanged();
  const job =
    kind === 'closed'
      ? { ...base.job, status: 'closed' as const, closed_reason: 'filled' as const }
      : kind === 'reposted'
        ? { ...base.job, repost_count: 2 }
        : base.job;
  return {
    ...base,
    change_id: `chg_${kind}`,
    change: kind,
    changed_fields: kind === 'updated' ? ['salary'] : [],
    job,
    occurred_at: CHANGE_AT,
    ...overrides,
  };
}

function hiring(
  value: boolean | null,
  overrides: Partial<CompanyHiringChanged.Value> = {},
): CompanyHiringChanged.Value {
  const base = examples.companyHiringChanged();
  return { ...base, is_hiring: { ...base.is_hiring, value }, occurred_at: CHANGE_AT, ...overrides };
}

describe('watchEventId', () => {
  it('is the same for the same watch and change, and a valid event id', () => {
    const id = watchEventId('wat_1', 'chg_1');
    expect(id).toBe(watchEventId('wat_1', 'chg_1'));
    expect(id).toMatch(/^evt_[A-Za-z0-9_-]{32}$/);
  });

  it('differs between watches and between changes', () => {
    const ids = new Set([
      watchEventId('wat_1', 'chg_1'),
      watchEventId('wat_2', 'chg_1'),
      watchEventId('wat_1', 'chg_2'),
      watchEventId('wat_1c', 'hg_1'),
    ]);
    expect(ids.size).toBe(4);
  });
});

describe('matchJobChange: the events', () => {
  it.each([
    ['opened', 'job.opened'],
    ['updated', 'job.updated'],
    ['closed', 'job.closed'],
    ['reposted', 'job.reposted'],
  ] as const)('makes %s into a valid %s event with the watch id and the change time', (kind, type) => {
    const [made, ...rest] = eventsForJobChange([watch()], change(kind));
    expect(rest).toHaveLength(0);
    expect(made!.event.type).toBe(type);
    expect(made!.event.watch_id).toBe('wat_company');
    expect(made!.event.created_at).toBe(CHANGE_AT);
    expect(made!.event.id).toBe(watchEventId('wat_company', `chg_${kind}`));
    expect(EventSchema.parse(made!.event)).toEqual(made!.event);
  });

  it('carries the full job on opened and updated', () => {
    const c = change('updated');
    expect(eventsForJobChange([watch()], c)[0]!.event.data.job).toEqual(c.job);
  });

  it('carries only the lifecycle fields on closed and reposted', () => {
    const closed = eventsForJobChange([watch()], change('closed'))[0]!.event.data.job;
    expect(Object.keys(closed).sort()).toEqual(['closed_reason', 'company', 'id', 'status', 'title']);
    expect(closed).toMatchObject({ status: 'closed', closed_reason: 'filled' });
    const reposted = eventsForJobChange([watch()], change('reposted'))[0]!.event.data.job;
    expect(Object.keys(reposted).sort()).toEqual(['company', 'id', 'repost_count', 'status', 'title']);
    expect(reposted).toMatchObject({ repost_count: 2, status: 'open' });
  });

  it('makes the same event again for a redelivered change', () => {
    expect(eventsForJobChange([watch()], change('opened'))).toEqual(eventsForJobChange([watch()], change('opened')));
  });

  it('skips watches of another company, and jobs without a domain', () => {
    expect(eventsForJobChange([watch({ domain: 'other.example' })], change('opened'))).toEqual([]);
    const c = change('opened');
    expect(
      eventsForJobChange([watch()], { ...c, job: { ...c.job, company: { ...c.job.company, domain: null } } }),
    ).toEqual([]);
  });

  it(
    'sends job.opened to the watches a job enters when it reaches ' +
      'a known company, job.updated to those that had it',
    () => {
      const reached = change('updated', { change_id: 'chg_reached', changed_fields: ['salary', 'company'] });
      const company = watch();
      const byDomain = watch({
        id: 'wat_by_domain',
        type: 'search',
        domain: null,
        filters: { company_domain_or: ['acme.example'] },
      });
      const byTitle = watch({ id: 'wat_by_title', type: 'search', domain: null, filters: { title_or: ['engineer'] } });
      const made = eventsForJobChange([company, byDomain, byTitle], reached);
      expect(made.map((m) => [m.watch.id, m.event.type])).toEqual([
        ['wat_company', 'job.opened'],
        ['wat_by_domain', 'job.opened'],
        ['wat_by_title', 'job.updated'],
      ]);
      expect(made[0]!.event.id).toBe(watchEventId('wat_company', 'chg_reached'));
      for (const m of made) expect(EventSchema.parse(m.event)).toEqual(m.event);
      // subscribed to job.opened only: the company watch still hears of it; to job.updated only: it does not
      expect(eventsForJobChange([watch({ events: ['job.opened'] })], reached)).toHaveLength(1);
      expect(eventsForJobChange([watch({ events: ['job.updated'] })], reached)).toEqual([]);
    },
  );

  it(
    'sends job.opened to the watches an update brought the job into (a field filled in), ' +
      'job.updated to those it stayed in, nothing to the others',
    () => {
      const filled = change('updated', {
        change_id: 'chg_filled',
        changed_fields: ['seniority', 'salary'],
        previous: { seniority: null, salary: null },
      });
      const search = (id: string, filters: WatchRecord['filters']) =>
        watch({ id, type: 'search', domain: null, filters });
      const made = eventsForJobChange(
        [
          search('wat_senior', { seniority_or: ['senior'] }),
          search('wat_paid', { salary_min_gte: 50_000 }),
          search('wat_title', { title_or: ['engineer'] }),
          search('wat_junior', { seniority_or: ['junior'] }),
        ],
        filled,
      );
      expect(made.map((m) => [m.watch.id, m.event.type, m.leftScope])).toEqual([
        ['wat_senior', 'job.opened', false],
        ['wat_paid', 'job.opened', false],
        ['wat_title', 'job.updated', false],
      ]);
      for (const m of made) expect(EventSchema.parse(m.event)).toEqual(m.event);
      // a job first seen before the watch's window is not a new opening for it
      const windowed = search('wat_recent', { seniority_or: ['senior'], posted_within_days: 1 });
      expect(eventsForJobChange([windowed], filled)).toEqual([]);
    },
  );

  it('names the watches that hear of a job only by job.opened when a change ends the opening they may hold', () => {
    const before = examples.job();
    const renamed = { ...before, title: 'Senior Backend Developer' };
    const search = (id: string, events: WatchRecord['events']) =>
      watch({ id, type: 'search', domain: null, filters: { title_or: ['engineer'] }, events });
    const openedOnly = search('wat_opened_only', ['job.opened']);
    const hearsAll = search('wat_all', ['job.opened', 'job.updated', 'job.closed']);
    const noOpenings = search('wat_closings', ['job.closed']);
    const watches = [openedOnly, hearsAll, noOpenings];
    const left = change('updated', { changed_fields: ['title'], job: renamed, previous: { title: before.title } });
    expect(matchJobChange(watches, left).openingsEnded.map((w) => w.id)).toEqual(['wat_opened_only']);
    expect(matchJobChange(watches, change('closed')).openingsEnded.map((w) => w.id)).toEqual(['wat_opened_only']);
    expect(matchJobChange(watches, change('updated')).openingsEnded).toEqual([]);
    expect(matchJobChange(watches, change('reposted')).openingsEnded).toEqual([]);
  });

  it('makes a held-only update for a watch that hears only of openings, so its held copy stays current', () => {
    const search = (id: string, events: WatchRecord['events']) =>
      watch({ id, type: 'search', domain: null, filters: { title_or: ['engineer'] }, events });
    const watches = [search('wat_opened_only', ['job.opened']), search('wat_closings', ['job.closed'])];
    const salary = change('updated', { changed_fields: ['salary'], previous: { salary: null } });
    expect(matchJobChange(watches, salary).events.map((m) => [m.watch.id, m.event.type, m.heldOnly])).toEqual([
      ['wat_opened_only', 'job.updated', true],
    ]);
    // out of scope: the held opening is ended instead, no update made
    const before = examples.job();
    const left = change('updated', {
      changed_fields: ['title'],
      job: { ...before, title: 'Senior Backend Developer' },
      previous: { title: before.title },
    });
    expect(matchJobChange(watches, left).events).toEqual([]);
    // a watch that hears of updates gets the real one
    const hearsAll = search('wat_all', ['job.opened', 'job.updated']);
    expect(matchJobChange([hearsAll], salary).events.map((m) => [m.event.type, m.heldOnly])).toEqual([
      ['job.updated', false],
    ]);
  });

  it('sends the update that took the job out of a watch, marked, and no later event of the job', () => {
    const before = examples.job();
    const renamed = { ...before, title: 'Senior Backend Developer' };
    const byTitle = watch({ id: 'wat_title', type: 'search', domain: null, filters: { title_or: ['engineer'] } });
    const left = change('updated', {
      change_id: 'chg_renamed',
      changed_fields: ['title'],
      job: renamed,
      previous: { title: before.title },
    });
    const made = eventsForJobChange([byTitle], left);
    expect(made.map((m) => [m.event.type, m.leftScope, m.event.data.job.title])).toEqual([
      ['job.updated', true, 'Senior Backend Developer'],
    ]);
    const closed = change('closed', { job: { ...renamed, status: 'closed', closed_reason: 'filled' } });
    expect(eventsForJobChange([byTitle], closed)).toEqual([]);
    // a producer without `previous`: judged on the job after the change alone
    expect(eventsForJobChange([byTitle], { ...left, previous: undefined })).toEqual([]);
  });

  it('narrows a company watch by its filters', () => {
    expect(eventsForJobChange([watch({ filters: { title_or: ['backend'] } })], change('opened'))).toHaveLength(1);
    expect(eventsForJobChange([watch({ filters: { title_or: ['designer'] } })], change('opened'))).toEqual([]);
    expect(eventsForJobChange([watch({ filters: { country_code_or: ['FR'] } })], change('opened'))).toEqual([]);
  });

  it('matches search watches by their filters, any company', () => {
    const search = watch({
      id: 'wat_search',
      type: 'search',
      domain: null,
      filters: { title_or: ['engineer'], country_code_or: ['GB'] },
    });
    expect(eventsForJobChange([search], change('opened')).map((m) => m.watch.id)).toEqual(['wat_search']);
    expect(eventsForJobChange([{ ...search, filters: { title_or: ['nurse'] } }], change('opened'))).toEqual([]);
    expect(
      eventsForJobChange([{ ...search, filters: { company_domain_or: ['acme.example'] } }], change('opened')),
    ).toHaveLength(1);
  });

  it('matches a closed job for job.closed even though the filters exclude closed jobs', () => {
    const search = watch({ type: 'search', domain: null, filters: { title_or: ['engineer'] } });
    expect(eventsForJobChange([search], change('closed'))).toHaveLength(1);
    expect(jobInScope(search, { ...change('updated'), job: change('closed').job })).toBe(false);
  });

  it('counts posted_within_days back from the moment of the change', () => {
    const c = change('opened');
    const recent = { ...c, job: { ...c.job, first_seen_at: '2026-09-29T12:00:00.000Z' } };
    const old = { ...c, job: { ...c.job, first_seen_at: '2026-08-01T12:00:00.000Z' } };
    const w = watch({ filters: { posted_within_days: 7 } });
    expect(eventsForJobChange([w], recent)).toHaveLength(1);
    expect(eventsForJobChange([w], old)).toEqual([]);
  });

  it('applies posted_within_days to openings only: an older job still closes, is re-listed and changes', () => {
    const firstSeenLongAgo = (c: JobLifecycleChanged.Value) => ({
      ...c,
      job: { ...c.job, first_seen_at: '2026-08-01T12:00:00.000Z' },
    });
    const company = watch({ filters: { posted_within_days: 7 } });
    const search = watch({ id: 'wat_search', type: 'search', domain: null, filters: { posted_within_days: 7 } });
    for (const kind of ['closed', 'reposted', 'updated'] as const) {
      const made = eventsForJobChange([company, search], firstSeenLongAgo(change(kind)));
      expect(made.map((m) => m.event.type)).toEqual([`job.${kind}`, `job.${kind}`]);
    }
    // an older job reaching a known company is an update for the company watch, never an opening
    const reached = firstSeenLongAgo(change('updated', { changed_fields: ['company'] }));
    expect(eventsForJobChange([company], reached)).toEqual([]);
    const recent = { ...reached, job: { ...reached.job, first_seen_at: '2026-09-29T12:00:00.000Z' } };
    expect(eventsForJobChange([company], recent).map((m) => m.event.type)).toEqual(['job.opened']);
    const unfiltered = watch({
      id: 'wat_search_all',
      type: 'search',
      domain: null,
      filters: { title_or: ['engineer'] },
    });
    expect(eventsForJobChange([unfiltered], reached).map((m) => m.event.type)).toEqual(['job.updated']);
  });

  it('skips watches not subscribed to the event type', () => {
    expect(eventsForJobChange([watch({ events: ['job.closed'] })], change('opened'))).toEqual([]);
    expect(eventsForJobChange([watch({ events: ['job.closed'] })], change('closed'))).toHaveLength(1);
  });

  it('skips changes that occurred before the watch was created', () => {
    expect(eventsForJobChange([watch({ createdAt: new Date('2026-10-01T12:00:00.001Z') })], change('opened'))).toEqual(
      [],
    );
    expect(eventsForJobChange([watch({ createdAt: new Date(CHANGE_AT) })], change('opened'))).toHaveLength(1);
  });

  it('skips changes that occurred while a resumed watch was paused: only those since its resume', () => {
    const resumed = (at: string) =>
      watch({ createdAt: new Date('2026-09-01T00:00:00.000Z'), activeSince: new Date(at) });
    expect(eventsForJobChange([resumed('2026-10-01T12:00:00.001Z')], change('opened'))).toEqual([]);
    expect(eventsForJobChange([resumed('2026-10-01T12:00:00.001Z')], change('closed'))).toEqual([]);
    expect(eventsForJobChange([resumed(CHANGE_AT)], change('opened'))).toHaveLength(1);
  });

  it('skips paused and test-key watches', () => {
    expect(eventsForJobChange([watch({ status: 'paused' })], change('opened'))).toEqual([]);
    expect(eventsForJobChange([watch({ mode: 'test' })], change('opened'))).toEqual([]);
  });

  it('makes one event per concerned watch, each with its own id', () => {
    const made = eventsForJobChange(
      [watch({ id: 'wat_a' }), watch({ id: 'wat_b' }), watch({ id: 'wat_c', domain: 'x.example' })],
      change('opened'),
    );
    expect(made.map((m) => m.watch.id)).toEqual(['wat_a', 'wat_b']);
    expect(new Set(made.map((m) => m.event.id)).size).toBe(2);
  });
});

describe('eventsForHiringChange', () => {
  it('fires company.hiring_started on true and company.hiring_stopped on false', () => {
    const started = eventsForHiringChange([watch()], hiring(true));
    expect(started.map((m) => m.event.type)).toEqual(['company.hiring_started']);
    expect(EventSchema.parse(started[0]!.event)).toEqual(started[0]!.event);
    expect(started[0]!.event.id).toBe(watchEventId('wat_company', 'chg_2'));
    const stopped = eventsForHiringChange([watch()], hiring(false));
    expect(stopped.map((m) => m.event.type)).toEqual(['company.hiring_stopped']);
    expect(stopped[0]!.event.data.is_hiring.value).toBe(false);
  });

  it('fires nothing on a change to null', () => {
    expect(eventsForHiringChange([watch()], hiring(null))).toEqual([]);
  });

  it('concerns only company watches of that domain subscribed to the type, created before the change', () => {
    expect(eventsForHiringChange([watch({ domain: 'other.example' })], hiring(true))).toEqual([]);
    expect(
      eventsForHiringChange(
        [watch({ type: 'search', domain: null, filters: { company_domain_or: ['acme.example'] } })],
        hiring(true),
      ),
    ).toEqual([]);
    expect(eventsForHiringChange([watch({ events: ['company.hiring_stopped'] })], hiring(true))).toEqual([]);
    expect(eventsForHiringChange([watch({ events: ['company.hiring_stopped'] })], hiring(false))).toHaveLength(1);
    expect(eventsForHiringChange([watch({ createdAt: new Date('2026-10-02T00:00:00.000Z') })], hiring(true))).toEqual(
      [],
    );
  });

  it('concerns no paused watch, and a resumed one only for changes since its resume', () => {
    expect(eventsForHiringChange([watch({ status: 'paused' })], hiring(true))).toEqual([]);
    expect(eventsForHiringChange([watch({ activeSince: new Date('2026-10-02T00:00:00.000Z') })], hiring(true))).toEqual(
      [],
    );
    expect(eventsForHiringChange([watch({ activeSince: new Date(CHANGE_AT) })], hiring(false))).toHaveLength(1);
  });
});
