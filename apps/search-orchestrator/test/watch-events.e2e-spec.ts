import type { Job } from '@jobs/contracts';
import { admin, api, dashboardSignIn, uniqueWord, wholeLedger } from '@jobs/e2e-support';
import { watchEventId } from '../src/watches/watch-events.js';
import {
  createWatch,
  creditsOf,
  db,
  eventOf,
  eventsOf,
  jobAt,
  newDomain,
  pro,
  publishChange,
  publishEventCharge,
  publishHiring,
  useWatchFixture,
  WAIT_MS,
  webhookUrl,
} from './watch-fixture.js';

/**
 * The watch matcher: lifecycle and hiring changes published on their Kafka topics (as dedupe
 * publishes them) become events on `event.emitted`, `job.opened` charged by billing (ledger line,
 * held without credits and released after a top-up), every other event free.
 */
useWatchFixture();

/** The jobs of the account's held job.opened events, in any order (sorted). */
async function heldJobs(accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ job_id: string }>('SELECT job_id FROM held_watch_events WHERE account_id = $1', [
    accountId,
  ]);
  return rows.map((r) => r.job_id).sort();
}

/** Until the account's held job.opened events are of exactly these jobs (billing works on its own partition). */
async function heldUntil(accountId: string, jobIds: string[]): Promise<void> {
  const want = [...jobIds].sort();
  const deadline = Date.now() + WAIT_MS;
  while (JSON.stringify(await heldJobs(accountId)) !== JSON.stringify(want) && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  expect(await heldJobs(accountId)).toEqual(want);
}

describe('watch events', () => {
  it(
    'job.opened is charged 1 credit with a ledger line and ' + 'emitted once; updated, closed and reposted are free',
    async () => {
      const { live_key: key, account_id: accountId } = await pro(10);
      const domain = newDomain();
      const watch = await createWatch(key, { type: 'company', domain });
      const job = jobAt(domain);

      const opened = await publishChange('opened', job);
      const { event, value } = await eventOf(watch.id, (e) => e.type === 'job.opened');
      expect(value).toMatchObject({ account_id: accountId, webhook_url: webhookUrl });
      expect(event).toMatchObject({
        type: 'job.opened',
        watch_id: watch.id,
        created_at: opened.occurred_at,
        data: { job },
      });
      const ledger = await wholeLedger(key, job.id);
      expect(ledger).toEqual([
        expect.objectContaining({
          job_id: job.id,
          credits: 1,
          reason: 'charged',
          request_id: event.id,
          operation: 'POST /v1/watches',
        }),
      ]);
      expect(await creditsOf(key)).toBe(9);

      // a redelivered change makes the same event, charged once
      await publishChange('opened', job, { change_id: opened.change_id, occurred_at: opened.occurred_at });
      const updated = await publishChange('updated', { ...job, salary: null });
      const up = await eventOf(watch.id, (e) => e.type === 'job.updated');
      expect(up.event.data).toEqual({ job: { ...job, salary: null } });
      expect(up.event.id).not.toBe(event.id);
      expect(up.event.created_at).toBe(updated.occurred_at);

      await publishChange('closed', { ...job, status: 'closed', closed_reason: 'filled' });
      const closed = await eventOf(watch.id, (e) => e.type === 'job.closed');
      expect(closed.event.data).toEqual({
        job: { id: job.id, title: job.title, company: job.company, status: 'closed', closed_reason: 'filled' },
      });

      await publishChange('reposted', { ...job, repost_count: 1 });
      const reposted = await eventOf(watch.id, (e) => e.type === 'job.reposted');
      expect(reposted.event.data).toEqual({
        job: { id: job.id, title: job.title, company: job.company, status: 'open', repost_count: 1 },
      });

      // A second job's opening, ordered behind the redelivered change (same key, then the same
      // account partition to billing): once it is charged, the redelivery has been handled.
      const later = jobAt(domain);
      await publishChange('opened', later, {}, job.id);
      await eventOf(watch.id, (e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id === later.id);
      expect(await wholeLedger(key, job.id)).toHaveLength(1);
      expect(await creditsOf(key)).toBe(8);
      expect(
        new Set(
          eventsOf(watch.id)
            .filter((e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id === job.id)
            .map((e) => e.id),
        ),
      ).toEqual(new Set([event.id]));
    },
  );

  it('a job already paid for is delivered free (ledger already_paid)', async () => {
    const { live_key: key } = await pro(10);
    const domain = newDomain();
    const first = await createWatch(key, { type: 'company', domain });
    const second = await createWatch(key, { type: 'company', domain, events: ['job.opened'] });
    const job = jobAt(domain);
    await publishChange('opened', job);
    await eventOf(first.id, (e) => e.type === 'job.opened');
    await eventOf(second.id, (e) => e.type === 'job.opened');
    const ledger = await wholeLedger(key, job.id);
    expect(ledger.map((l) => [l.reason, l.credits]).sort()).toEqual([
      ['already_paid', 0],
      ['charged', 1],
    ]);
    expect(await creditsOf(key)).toBe(9);
  });

  it('a search watch gets the jobs its filters match, at any company, and only its subscribed types', async () => {
    const { live_key: key } = await pro(10);
    const word = uniqueWord();
    const watch = await createWatch(key, {
      type: 'search',
      filters: { title_or: [word] },
      events: ['job.opened', 'job.closed'],
    });
    const match = jobAt(newDomain(), { title: `${word} Nurse` });
    const other = jobAt(newDomain());
    await publishChange('opened', other);
    await publishChange('updated', match);
    await publishChange('opened', match);
    const { event } = await eventOf(watch.id, (e) => e.type === 'job.opened');
    expect((event.data as { job: Job }).job.id).toBe(match.id);
    await publishChange('closed', { ...match, status: 'closed', closed_reason: 'expired' });
    await eventOf(watch.id, (e) => e.type === 'job.closed');
    expect(
      eventsOf(watch.id)
        .map((e) => e.type)
        .sort(),
    ).toEqual(['job.closed', 'job.opened']);
  });

  it(
    'an update that brings a job into a search watch is its job.opened (charged); one that takes it out is ' +
      'its last job.updated, and drops a held job.opened of it',
    async () => {
      const { live_key: key } = await pro(10);
      const word = uniqueWord();
      const filters = { title_or: [word], seniority_or: ['senior' as const] };
      const watch = await createWatch(key, { type: 'search', filters });
      const sparse = jobAt(newDomain(), { title: `${word} Engineer`, seniority: null });
      await publishChange('opened', sparse);
      const filled = { ...sparse, seniority: 'senior' as const };
      await publishChange('updated', filled, { changed_fields: ['seniority'], previous: { seniority: null } });
      const opened = await eventOf(watch.id, (e) => e.type === 'job.opened');
      expect((opened.event.data as { job: Job }).job.seniority).toBe('senior');
      expect((await wholeLedger(key, sparse.id)).map((l) => [l.credits, l.reason])).toEqual([[1, 'charged']]);

      const renamed = { ...filled, title: 'Quantity Surveyor' };
      await publishChange('updated', renamed, { changed_fields: ['title'], previous: { title: filled.title } });
      const left = await eventOf(watch.id, (e) => e.type === 'job.updated');
      expect((left.event.data as { job: Job }).job.title).toBe('Quantity Surveyor');
      await publishChange('closed', { ...renamed, status: 'closed', closed_reason: 'filled' });
      // a later job of the watch, behind the closing on the same key: once it arrives, the closing was matched
      const next = jobAt(newDomain(), { title: `${word} Lead`, seniority: 'senior' });
      await publishChange('opened', next, {}, sparse.id);
      await eventOf(watch.id, (e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id === next.id);
      expect(eventsOf(watch.id).map((e) => e.type)).toEqual(['job.opened', 'job.updated', 'job.opened']);

      // without credits: the opening is held, and the update that takes the job out drops it, also
      // for a watch that hears of openings only (it gets no job.updated)
      const holder = await pro(0);
      const holding = await createWatch(holder.live_key, { type: 'search', filters });
      const openingsOnly = await createWatch(holder.live_key, { type: 'search', filters, events: ['job.opened'] });
      const other = jobAt(newDomain(), { title: `${word} Engineer`, seniority: null });
      await publishChange(
        'updated',
        { ...other, seniority: 'senior' },
        {
          changed_fields: ['seniority'],
          previous: { seniority: null },
        },
      );
      await heldUntil(holder.account_id, [other.id, other.id]);
      await publishChange(
        'updated',
        { ...other, seniority: 'junior' },
        {
          changed_fields: ['seniority'],
          previous: { seniority: 'senior' },
        },
      );
      await heldUntil(holder.account_id, []);
      await admin('POST', `/accounts/${holder.account_id}/credits`, { amount: 5 });
      await new Promise((r) => setTimeout(r, 1_000));
      expect(eventsOf(holding.id)).toEqual([]);
      expect(eventsOf(openingsOnly.id)).toEqual([]);
      expect(await creditsOf(holder.live_key)).toBe(5);
    },
  );

  it('fires company.hiring_started and company.hiring_stopped, nothing on a change to null', async () => {
    const { live_key: key } = await pro();
    const domain = newDomain();
    const watch = await createWatch(key, { type: 'company', domain });
    await publishHiring(domain, null);
    await publishHiring(domain, true);
    const started = await eventOf(watch.id, (e) => e.type === 'company.hiring_started');
    expect(started.event.data).toMatchObject({ company: { domain }, is_hiring: { value: true } });
    await publishHiring(domain, false);
    const stopped = await eventOf(watch.id, (e) => e.type === 'company.hiring_stopped');
    expect(stopped.event.data).toMatchObject({ company: { domain }, is_hiring: { value: false } });
    // the null change came first on the company's partition and made nothing
    expect(eventsOf(watch.id).map((e) => e.type)).toEqual(['company.hiring_started', 'company.hiring_stopped']);
  });

  it('changes from before the watch existed and deleted watches make nothing', async () => {
    const { live_key: key, account_id: accountId } = await pro();
    const domain = newDomain();
    const kept = await createWatch(key, { type: 'company', domain });
    const deleted = await createWatch(key, { type: 'company', domain });
    expect((await api(`/v1/watches/${deleted.id}`, { key, method: 'DELETE' })).status).toBe(204);
    const job = jobAt(domain);
    // the account paid for the job earlier (job.updated carries the full Job: only to payers)
    await db.query('INSERT INTO paid_jobs (account_id, job_id) VALUES ($1, $2)', [accountId, job.id]);
    await publishChange('updated', job, { occurred_at: new Date(Date.parse(kept.created_at) - 60_000).toISOString() });
    await publishChange('updated', { ...job, description: 'changed' });
    const { event } = await eventOf(kept.id, (e) => e.type === 'job.updated');
    expect((event.data as { job: Job }).job.description).toBe('changed');
    expect(eventsOf(kept.id)).toHaveLength(1);
    expect(eventsOf(deleted.id)).toEqual([]);
  });

  it('holds job.opened while the account has no credits and releases it, in order, after a top-up', async () => {
    const { live_key: key, account_id: accountId } = await pro(0);
    const domain = newDomain();
    const watch = await createWatch(key, { type: 'company', domain, events: ['job.opened'] });
    const first = jobAt(domain);
    const second = jobAt(domain);
    await publishChange('opened', first);
    await publishChange('opened', second);
    const deadline = Date.now() + WAIT_MS;
    let held: string[] = [];
    while (held.length < 2 && Date.now() < deadline) {
      held = (
        await db.query<{ job_id: string }>('SELECT job_id FROM held_watch_events WHERE account_id = $1 ORDER BY seq', [
          accountId,
        ])
      ).rows.map((r) => r.job_id);
      if (held.length < 2) await new Promise((r) => setTimeout(r, 200));
    }
    expect([...held].sort()).toEqual([first.id, second.id].sort());
    expect(eventsOf(watch.id)).toEqual([]);
    expect(await wholeLedger(key)).toEqual([]);

    // One credit (the admin top-up publishes account.credits.added) releases the older held
    // event only; the other waits for the next top-up.
    await admin('POST', `/accounts/${accountId}/credits`, { amount: 1 });
    const one = await eventOf(watch.id, (e) => e.type === 'job.opened');
    const firstHeld = held[0]!;
    expect((one.event.data as { job: Job }).job.id).toBe(firstHeld);
    expect(await creditsOf(key)).toBe(0);

    await admin('POST', `/accounts/${accountId}/credits`, { amount: 5 });
    const two = await eventOf(
      watch.id,
      (e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id !== firstHeld,
    );
    expect((two.event.data as { job: Job }).job.id).toBe(held[1]);
    expect(await creditsOf(key)).toBe(4);
    const ledger = await wholeLedger(key);
    expect(ledger.map((l) => [l.job_id, l.credits, l.reason]).sort()).toEqual(
      [
        [first.id, 1, 'charged'],
        [second.id, 1, 'charged'],
      ].sort(),
    );
    expect((await db.query('SELECT 1 FROM held_watch_events WHERE account_id = $1', [accountId])).rowCount).toBe(0);
  });

  it('drops the held job.opened of a watch deleted or paused before the top-up: never charged or sent', async () => {
    const { live_key: key, account_id: accountId } = await pro(0);
    const [gone, paused, kept] = [newDomain(), newDomain(), newDomain()];
    const deleted = await createWatch(key, { type: 'company', domain: gone, events: ['job.opened'] });
    const pausedWatch = await createWatch(key, { type: 'company', domain: paused, events: ['job.opened'] });
    const active = await createWatch(key, { type: 'company', domain: kept, events: ['job.opened'] });
    const [ofDeleted, ofPaused, ofActive] = [jobAt(gone), jobAt(paused), jobAt(kept)];
    // three jobs of three companies: the matcher takes them in any order, so they are held in any order
    for (const job of [ofDeleted, ofPaused, ofActive]) await publishChange('opened', job);
    await heldUntil(accountId, [ofDeleted.id, ofPaused.id, ofActive.id]);

    expect((await api(`/v1/watches/${deleted.id}`, { key, method: 'DELETE' })).status).toBe(204);
    const dashboard = await dashboardSignIn(key);
    expect((await dashboard.call('PATCH', `/watches/${pausedWatch.id}`, { status: 'paused' })).status).toBe(200);
    // billing drops them on the account's partition, behind the events held before
    await heldUntil(accountId, [ofActive.id]);

    // a resume replays nothing of the pause
    expect((await dashboard.call('PATCH', `/watches/${pausedWatch.id}`, { status: 'active' })).status).toBe(200);
    await admin('POST', `/accounts/${accountId}/credits`, { amount: 5 });
    const released = await eventOf(active.id, (e) => e.type === 'job.opened');
    expect((released.event.data as { job: Job }).job.id).toBe(ofActive.id);
    const ledger = await wholeLedger(key);
    expect(ledger.map((l) => [l.job_id, l.credits, l.reason])).toEqual([[ofActive.id, 1, 'charged']]);
    expect(await creditsOf(key)).toBe(4);
    expect(eventsOf(deleted.id)).toEqual([]);
    expect(eventsOf(pausedWatch.id)).toEqual([]);
    await heldUntil(accountId, []);
  });

  it('drops a job.opened a matcher made before a pause and sent after it; a change after the resume goes', async () => {
    const { live_key: key, account_id: accountId } = await pro(1);
    const [pausing, other] = [newDomain(), newDomain()];
    const paused = await createWatch(key, { type: 'company', domain: pausing, events: ['job.opened'] });
    const active = await createWatch(key, { type: 'company', domain: other, events: ['job.opened'] });
    const beforePause = new Date().toISOString();
    // the job.opened a matcher that read the watch as active just before the pause publishes just after it
    const madeBeforePause = () => {
      const job = jobAt(pausing);
      const event = {
        id: watchEventId(paused.id, `chg_${uniqueWord()}`),
        type: 'job.opened' as const,
        created_at: beforePause,
        watch_id: paused.id,
        data: { job },
      };
      return { v: 1 as const, account_id: accountId, event, webhook_url: webhookUrl };
    };
    const dashboard = await dashboardSignIn(key);
    expect((await dashboard.call('PATCH', `/watches/${paused.id}`, { status: 'paused' })).status).toBe(200);
    const stopKept = async () =>
      (await db.query('SELECT 1 FROM watch_stops WHERE watch_id = $1', [paused.id])).rowCount === 1;
    const deadline = Date.now() + WAIT_MS;
    while (!(await stopKept()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await stopKept()).toBe(true);

    // with a credit: not charged; the active watch's later opening (same partition, behind it) is
    await publishEventCharge(madeBeforePause());
    const charged = jobAt(other);
    await publishChange('opened', charged);
    await eventOf(active.id, (e) => e.type === 'job.opened');
    expect((await wholeLedger(key)).map((l) => l.job_id)).toEqual([charged.id]);
    // without credits: not held either
    await publishEventCharge(madeBeforePause());
    const held = jobAt(other);
    await publishChange('opened', held);
    await heldUntil(accountId, [held.id]);

    // after the resume, the paused watch's next opening is held like any other, and released
    expect((await dashboard.call('PATCH', `/watches/${paused.id}`, { status: 'active' })).status).toBe(200);
    const afterResume = jobAt(pausing);
    await publishChange('opened', afterResume);
    await heldUntil(accountId, [held.id, afterResume.id]);
    await admin('POST', `/accounts/${accountId}/credits`, { amount: 5 });
    const released = await eventOf(paused.id, (e) => e.type === 'job.opened');
    expect((released.event.data as { job: Job }).job.id).toBe(afterResume.id);
    expect(eventsOf(paused.id)).toHaveLength(1);
    expect((await wholeLedger(key)).map((l) => l.job_id).sort()).toEqual([charged.id, held.id, afterResume.id].sort());
    expect(await creditsOf(key)).toBe(3);
  });

  it('drops the held job.opened of a job that closed before the top-up, and sends its job.closed', async () => {
    const { live_key: key, account_id: accountId } = await pro(0);
    const domain = newDomain();
    const watch = await createWatch(key, { type: 'company', domain, events: ['job.opened', 'job.closed'] });
    const [closing, staying] = [jobAt(domain), jobAt(domain)];
    await publishChange('opened', closing);
    await publishChange('opened', staying);
    await heldUntil(accountId, [closing.id, staying.id]);

    await publishChange('closed', { ...closing, status: 'closed', closed_reason: 'expired' });
    const closed = await eventOf(watch.id, (e) => e.type === 'job.closed');
    expect((closed.event.data as { job: { id: string } }).job.id).toBe(closing.id);
    await heldUntil(accountId, [staying.id]);

    await admin('POST', `/accounts/${accountId}/credits`, { amount: 5 });
    const released = await eventOf(watch.id, (e) => e.type === 'job.opened');
    expect((released.event.data as { job: Job }).job.id).toBe(staying.id);
    expect((await wholeLedger(key)).map((l) => [l.job_id, l.credits, l.reason])).toEqual([[staying.id, 1, 'charged']]);
    expect(await creditsOf(key)).toBe(4);
    expect(eventsOf(watch.id).filter((e) => e.type === 'job.opened')).toHaveLength(1);
    await heldUntil(accountId, []);
  });

  it(
    'job.updated goes only to accounts that paid for the job; a ' +
      'held job.opened still comes after a top-up, carrying the ' +
      'updated job',
    async () => {
      const payer = await pro(10);
      const holder = await pro(0);
      const onlyUpdates = await pro(10);
      const domain = newDomain();
      const paying = await createWatch(payer.live_key, { type: 'company', domain });
      const holding = await createWatch(holder.live_key, { type: 'company', domain });
      const neverPaid = await createWatch(onlyUpdates.live_key, { type: 'company', domain, events: ['job.updated'] });
      const job = jobAt(domain);
      await publishChange('opened', job);
      await eventOf(paying.id, (e) => e.type === 'job.opened');
      const heldJob = async () =>
        (
          await db.query<{ description: string | null }>(
            `SELECT event #>> '{data,job,description}' AS description FROM held_watch_events WHERE account_id = $1`,
            [holder.account_id],
          )
        ).rows[0];
      const deadline = Date.now() + WAIT_MS;
      while (!(await heldJob()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      expect(await heldJob()).toBeDefined();

      await publishChange('updated', { ...job, description: 'Updated after it opened' });
      const up = await eventOf(paying.id, (e) => e.type === 'job.updated');
      expect((up.event.data as { job: Job }).job.description).toBe('Updated after it opened');
      // the held job.opened took the updated job instead of a job.updated going out
      const folded = Date.now() + WAIT_MS;
      while ((await heldJob())?.description !== 'Updated after it opened' && Date.now() < folded)
        await new Promise((r) => setTimeout(r, 200));
      expect((await heldJob())?.description).toBe('Updated after it opened');
      await new Promise((r) => setTimeout(r, 1_000));
      expect(eventsOf(holding.id)).toEqual([]);
      expect(eventsOf(neverPaid.id)).toEqual([]);

      await admin('POST', `/accounts/${holder.account_id}/credits`, { amount: 5 });
      const opened = await eventOf(holding.id, (e) => e.type === 'job.opened');
      expect((opened.event.data as { job: Job }).job.description).toBe('Updated after it opened');
      expect(eventsOf(holding.id).map((e) => e.type)).toEqual(['job.opened']);

      // paid now: the next change reaches the holder too, and still never the account that never paid
      await publishChange('updated', { ...job, description: 'Changed again' });
      await eventOf(holding.id, (e) => e.type === 'job.updated');
      await eventOf(
        paying.id,
        (e) => e.type === 'job.updated' && (e.data as { job: Job }).job.description === 'Changed again',
      );
      await new Promise((r) => setTimeout(r, 1_000));
      expect(eventsOf(neverPaid.id)).toEqual([]);
    },
  );
});
