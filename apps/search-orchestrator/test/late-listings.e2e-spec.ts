import { JobSearchResponseSchema, type Event } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  api,
  createAccount,
  eventsAt as receivedEvents,
  jobOf,
  Receiver,
  refreshUntil,
  uniqueWord,
  waitForStackReady,
  type ProviderSlug,
} from '@jobs/e2e-support';

/**
 * Partners list postings days after the employer published them. A posting first listed now,
 * whatever its `posted_at`, reaches the company and saved-search watches that match it, and the
 * own index a Starter account searches, after a refresh call.
 */
const WAIT_MS = 120_000;
const DAY_MS = 86_400_000;

const receiver = new Receiver();

beforeAll(async () => {
  await waitForStackReady();
  await receiver.start();
}, 180_000);

afterAll(async () => {
  await receiver.stop();
});

const eventsAt = (url: string): Event[] => receivedEvents(receiver, url);

const ages: [string, number][] = [
  ['posted now', 0],
  ['posted a day before it was listed', DAY_MS],
  ['posted 30 days before it was listed', 30 * DAY_MS],
];

describe('a posting listed late', () => {
  it.each(ages)('reaches company and saved-search watches when %s', async (_name, ageMs) => {
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 10 });
    const domain = await addWorldCompany();
    const word = uniqueWord();
    const companyHook = receiver.endpoint();
    const searchHook = receiver.endpoint();
    for (const body of [
      { type: 'company', domain, webhook_url: companyHook },
      { type: 'search', filters: { title_or: [word] }, webhook_url: searchHook },
    ])
      expect((await api('/v1/watches', { key, body })).status).toBe(201);
    const providers: ProviderSlug[] = ['provider_a', 'provider_c', 'provider_d'];
    const postedAt = new Date(Date.now() - ageMs).toISOString();
    const opening = await addWorldJob({ providers, company_domain: domain, shared_word: word, posted_at: postedAt });

    const opened = (url: string) =>
      refreshUntil(
        () =>
          eventsAt(url).find((e) => e.type === 'job.opened' && jobOf(e).title.toLowerCase().includes(opening.keyword)),
        `job.opened at ${url}`,
        WAIT_MS,
      );
    const [byCompany, bySearch] = await Promise.all([opened(companyHook), opened(searchHook)]);
    expect(jobOf(byCompany).id).toBe(jobOf(bySearch).id);
    // the employer's posting date, not the listing's (a partner that dates by day may be the first to list it)
    expect(jobOf(byCompany).posted_at!.slice(0, 10)).toBe(postedAt.slice(0, 10));
  });

  it.each(ages)('reaches the own index a Starter account searches when %s', async (_name, ageMs) => {
    const { live_key: key } = await createAccount({ plan: 'starter', credits: 10 });
    const opening = await addWorldJob({
      providers: ['own_index'],
      posted_at: new Date(Date.now() - ageMs).toISOString(),
    });
    const found = await refreshUntil(
      async () => {
        const res = await api('/v1/jobs/search', { key, body: { filters: { title_or: [opening.keyword] } } });
        expect(res.status).toBe(200);
        return JobSearchResponseSchema.parse(res.body).data[0];
      },
      `${opening.title} in the own index`,
      WAIT_MS,
    );
    expect(found.title).toBe(opening.title);
  });
});
