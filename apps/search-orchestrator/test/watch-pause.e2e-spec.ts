import { EventSchema, WatchSchema, type Event, type Job, type Watch } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  api,
  createAccount,
  dashboardSignIn,
  Receiver,
  refreshUntil,
  wholeLedger,
  type WorldJob,
} from '@jobs/e2e-support';

/**
 * Pausing and resuming a watch from the dashboard (PATCH /dashboard/api/watches/{id}), against the
 * real stack: a company watch paused hears nothing of a job opened while it is paused (no
 * webhook, no feed entry, no charge), and once resumed it gets the next opening's job.opened,
 * never the one it missed.
 *
 * How "nothing" is known: a second watch of the same account on the same company stays active as
 * a witness. The matcher makes one change's events for every concerned watch in one pass and
 * publishes them keyed by account, so once the witness has its job.opened (charged by billing, in
 * the feed, delivered), an event of the paused watch for the same change would be in the feed
 * before it.
 */
/** Up to two refresh passes (the one under way, then the next) on a loaded machine. */
const WAIT_MS = 150_000;

const receiver = new Receiver();

beforeAll(async () => {
  await receiver.start();
});

afterAll(async () => {
  await receiver.stop();
});

const eventsAt = (url: string): Event[] =>
  receiver.at(url).map((arrival) => EventSchema.parse(JSON.parse(arrival.raw)));
const jobOf = (event: Event) => (event.data as { job: Job }).job;

/** The job.opened of `opening` delivered at `url`, after as many refresh passes as it takes. */
async function openedAt(url: string, opening: WorldJob): Promise<Event> {
  return refreshUntil(
    () => eventsAt(url).find((e) => e.type === 'job.opened' && jobOf(e).title === opening.title),
    `job.opened of ${opening.title} at ${url}`,
    WAIT_MS,
  );
}

/** The account's whole event feed (GET /v1/events), oldest first. */
async function feed(key: string): Promise<Event[]> {
  const events: Event[] = [];
  let since: string | null = null;
  for (let page = 0; page < 100; page++) {
    const res = await api(`/v1/events?limit=100${since ? `&since=${encodeURIComponent(since)}` : ''}`, { key });
    expect(res.status).toBe(200);
    const body = res.body as { data: Event[]; next_cursor: string | null };
    events.push(...body.data);
    if (!body.next_cursor || body.data.length === 0) return events;
    since = body.next_cursor;
  }
  throw new Error('the feed did not end within 100 pages');
}

async function listed(key: string, id: string): Promise<Watch | undefined> {
  const res = await api('/v1/watches', { key });
  expect(res.status).toBe(200);
  return (res.body as { data: Watch[] }).data.find((w) => w.id === id);
}

describe('pausing and resuming a watch from the dashboard', () => {
  it(
    'a paused watch gets no job.opened for a job opened while ' +
      'paused; resumed, it gets the next opening and never the ' +
      'missed one',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 20 });
      const domain = await addWorldCompany();
      const pausedHook = receiver.endpoint();
      const witnessHook = receiver.endpoint();
      const create = async (url: string) => {
        const res = await api('/v1/watches', {
          key,
          body: { type: 'company', domain, webhook_url: url, events: ['job.opened'] },
        });
        expect(res.status).toBe(201);
        return WatchSchema.parse(res.body);
      };
      const watch = await create(pausedHook);
      await create(witnessHook); // the witness: hears what the paused watch must not
      const dashboard = await dashboardSignIn(key);

      // Pause: answered with the watch, and GET /v1/watches shows it paused.
      const pause = await dashboard.call('PATCH', `/watches/${watch.id}`, { status: 'paused' });
      expect(pause.status).toBe(200);
      expect(WatchSchema.parse(pause.body)).toEqual({ ...watch, status: 'paused' });
      expect(await listed(key, watch.id)).toMatchObject({ status: 'paused' });
      // Pausing again changes nothing; a change without the CSRF token is refused; another account's watch is not
      // found.
      expect((await dashboard.call('PATCH', `/watches/${watch.id}`, { status: 'paused' })).body).toMatchObject({
        status: 'paused',
      });
      expect(
        (await dashboard.call('PATCH', `/watches/${watch.id}`, { status: 'active' }, { csrf: false })).status,
      ).toBe(403);
      const other = await dashboardSignIn((await createAccount({ plan: 'pro', credits: 1 })).live_key);
      expect((await other.call('PATCH', `/watches/${watch.id}`, { status: 'active' })).status).toBe(404);
      expect((await dashboard.call('PATCH', `/watches/${watch.id}`, { status: 'stopped' })).status).toBe(400);

      // A job opened while paused: the witness hears it, the paused watch does not.
      const whilePaused = await addWorldJob({ providers: ['own_index', 'provider_a'], company_domain: domain });
      const witnessed = await openedAt(witnessHook, whilePaused);
      const missedJob = jobOf(witnessed).id;
      const afterPause = await feed(key);
      expect(afterPause.map((e) => e.id)).toContain(witnessed.id);
      expect(afterPause.filter((e) => e.watch_id === watch.id)).toEqual([]);
      expect(eventsAt(pausedHook)).toEqual([]);
      // the missed job is charged by the witness's event alone (a watch event's line names it by id)
      const linesOfMissed = (await wholeLedger(key)).filter((l) => l.job_id === missedJob);
      expect(linesOfMissed.map((l) => [l.operation, l.request_id])).toEqual([['POST /v1/watches', witnessed.id]]);

      // Resume: matched again from now on.
      const resume = await dashboard.call('PATCH', `/watches/${watch.id}`, { status: 'active' });
      expect(resume.status).toBe(200);
      expect(resume.body).toMatchObject({ id: watch.id, status: 'active', created_at: watch.created_at });
      expect(await listed(key, watch.id)).toMatchObject({ status: 'active' });
      const afterResume = await addWorldJob({ providers: ['own_index', 'provider_a'], company_domain: domain });
      const heard = await openedAt(pausedHook, afterResume);
      await openedAt(witnessHook, afterResume);

      // Only the new opening, never the one opened while paused (no replay), in the hook and in the feed.
      const ofWatch = (await feed(key)).filter((e) => e.watch_id === watch.id);
      expect(ofWatch.map((e) => [e.id, e.type, jobOf(e).id])).toEqual([[heard.id, 'job.opened', jobOf(heard).id]]);
      expect(eventsAt(pausedHook).some((e) => jobOf(e).id === missedJob)).toBe(false);
      // Charged once per account: the missed job by the witness alone; the new one once (the older watch's event
      // charges
      // it, the other is already paid).
      const ledger = await wholeLedger(key);
      expect(ledger.filter((l) => l.job_id === missedJob).map((l) => [l.request_id, l.credits])).toEqual([
        [witnessed.id, 1],
      ]);
      expect(ledger.filter((l) => l.job_id === jobOf(heard).id).reduce((sum, l) => sum + l.credits, 0)).toBe(1);
    },
    600_000,
  );
});
