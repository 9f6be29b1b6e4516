import { JobSchema, WatchSchema, type Event } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventsAt as receivedEvents,
  jobOf,
  Receiver,
  refreshUntil,
  waitForStackReady,
  wholeLedger,
  type ProviderSlug,
  type WorldJobInput,
} from '@jobs/e2e-support';

/**
 * Re-listings of every shape, as a watching customer sees them: an opening announced by
 * `job.opened` (1 credit) and re-listed in the simulated market (new provider ids everywhere)
 * keeps its `job_` id, raises `repost_count` once per re-listing and fires `job.reposted`, free,
 * whether the opening is bare or rich, the own crawler's or partners' only, open or closed.
 */
const WAIT_MS = 150_000;

const BARE: Partial<WorldJobInput> = {
  location: null,
  employment_type: null,
  seniority: null,
  salary: null,
  description: null,
};

const receiver = new Receiver();

beforeAll(async () => {
  await waitForStackReady();
  await receiver.start();
}, 180_000);

afterAll(async () => {
  await receiver.stop();
});

const eventsAt = (url: string): Event[] => receivedEvents(receiver, url);

/** The first event at `url` matching `predicate`, refreshing until it arrives. */
function delivered(url: string, predicate: (event: Event) => boolean): Promise<Event> {
  return refreshUntil(() => eventsAt(url).find(predicate), `an event at ${url}`, WAIT_MS);
}

interface Shape {
  providers: ProviderSlug[];
  fields: Partial<WorldJobInput>;
  /** Closed (and seen closed) before it is re-listed. */
  closeFirst?: boolean;
  reposts?: number;
}

const shapes: [string, Shape][] = [
  ['a bare opening of the own crawler and a partner', { providers: ['own_index', 'provider_a'], fields: BARE }],
  ['a rich opening of the own crawler and a partner', { providers: ['own_index', 'provider_a'], fields: {} }],
  ['a bare partner-only opening', { providers: ['provider_a', 'provider_c'], fields: BARE }],
  ['a rich partner-only opening', { providers: ['provider_b', 'provider_d', 'provider_f'], fields: {} }],
  ['a bare opening closed, then re-listed', { providers: ['own_index', 'provider_b'], fields: BARE, closeFirst: true }],
  [
    'a rich opening re-listed twice by four providers',
    { providers: ['own_index', 'provider_a', 'provider_c', 'provider_f'], fields: {}, reposts: 2 },
  ],
];

describe('a re-listed opening keeps its job', () => {
  it.each(shapes)('%s', async (_name, shape) => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
    const domain = await addWorldCompany();
    const url = receiver.endpoint();
    const res = await api('/v1/watches', { key, body: { type: 'company', domain, webhook_url: url } });
    expect(res.status).toBe(201);
    WatchSchema.parse(res.body);
    const opening = await addWorldJob({ providers: shape.providers, company_domain: domain, ...shape.fields });
    const opened = jobOf(await delivered(url, (e) => e.type === 'job.opened'));
    // a partner may show the title in its own casing
    expect(opened.title.toLowerCase()).toContain(opening.keyword);
    // every provider's listings joined the same job: after n re-listings, n + 1 listings each
    const allListed = (n: number) =>
      refreshUntil(
        async () => {
          const current = JobSchema.parse((await api(`/v1/jobs/${opened.id}`, { key })).body);
          const listings = current.sources.filter((s) => shape.providers.includes(s.provider)).length;
          return listings === shape.providers.length * (n + 1) ? current : undefined;
        },
        `every listing of ${opened.id} after ${n} re-listing(s) merged`,
        WAIT_MS,
      );
    const reposts = shape.reposts ?? 1;
    let job = await allListed(0);
    if (shape.closeFirst) {
      await admin('POST', `/world/jobs/${opening.worldJobId}/close`, { reason: 'filled' });
      await delivered(url, (e) => e.type === 'job.closed' && jobOf(e).id === opened.id);
    }
    for (let n = 1; n <= reposts; n++) {
      await admin('POST', `/world/jobs/${opening.worldJobId}/repost`);
      const reposted = await delivered(
        url,
        (e) => e.type === 'job.reposted' && jobOf(e).id === opened.id && jobOf(e).repost_count === n,
      );
      expect(jobOf(reposted)).toMatchObject({ id: opened.id, status: 'open', repost_count: n });
      // each provider shows this re-listing before the next one replaces it
      job = await allListed(n);
    }
    // nothing counted twice
    expect(job).toMatchObject({ id: opened.id, status: 'open', repost_count: reposts });
    const events = eventsAt(url).filter((e) => e.type.startsWith('job.'));
    expect(new Set(events.map((e) => jobOf(e).id))).toEqual(new Set([opened.id]));
    expect(events.filter((e) => e.type === 'job.opened')).toHaveLength(1);
    expect(events.filter((e) => e.type === 'job.reposted').map((e) => jobOf(e).repost_count)).toEqual(
      Array.from({ length: reposts }, (_, i) => i + 1),
    );
    // one credit, for job.opened only (reading the job again is already paid)
    const charges = (await wholeLedger(key)).filter((l) => l.credits !== 0);
    expect(charges.map((l) => [l.job_id, l.credits, l.reason])).toEqual([[opened.id, 1, 'charged']]);
  });
});
