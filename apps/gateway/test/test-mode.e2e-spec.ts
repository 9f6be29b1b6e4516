import {
  AsyncSearchSchema,
  EventListResponseSchema,
  JobSearchResponseSchema,
  WatchListResponseSchema,
  WatchSchema,
  type AsyncSearch,
} from '@jobs/contracts';
import { api, createAccount, eventually, Receiver, uniqueWord } from './stack.js';

/**
 * Test mode is its own world: one account's test key and live key each see and change only the
 * objects of their own mode (watches, async searches, events), and an Idempotency-Key used by one
 * never answers the other.
 */
const receiver = new Receiver();
let account: { account_id: string; live_key: string; test_key: string };

beforeAll(async () => {
  await receiver.start();
  account = await createAccount({ plan: 'pro', credits: 1_000 });
});
afterAll(() => receiver.stop());

async function finished(key: string, id: string): Promise<AsyncSearch> {
  return eventually(
    async () => {
      const search = AsyncSearchSchema.parse((await api(`/v1/searches/${id}`, { key })).body);
      return ['completed', 'partial', 'failed'].includes(search.status) ? search : undefined;
    },
    60_000,
    `async search ${id} to finish`,
    250,
  );
}

describe('test mode is its own world', () => {
  it(
    'watches: a test watch is listed to the test key only, and ' + 'neither key can delete the other mode’s watch',
    async () => {
      const { live_key: live, test_key: test } = account;
      const testWatch = WatchSchema.parse(
        (
          await api('/v1/watches', {
            key: test,
            body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: receiver.endpoint() },
          })
        ).body,
      );
      const liveWatch = WatchSchema.parse(
        (
          await api('/v1/watches', {
            key: live,
            body: { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: receiver.endpoint() },
          })
        ).body,
      );
      const listed = async (key: string) =>
        WatchListResponseSchema.parse((await api('/v1/watches', { key })).body).data.map((w) => w.id);
      expect(await listed(test)).toEqual([testWatch.id]);
      expect(await listed(live)).toEqual([liveWatch.id]);
      expect((await api(`/v1/watches/${liveWatch.id}`, { key: test, method: 'DELETE' })).status).toBe(404);
      expect((await api(`/v1/watches/${testWatch.id}`, { key: live, method: 'DELETE' })).status).toBe(404);
      expect(await listed(live)).toEqual([liveWatch.id]);
      expect((await api(`/v1/watches/${testWatch.id}`, { key: test, method: 'DELETE' })).status).toBe(204);
      expect((await api(`/v1/watches/${liveWatch.id}`, { key: live, method: 'DELETE' })).status).toBe(204);
    },
  );

  it('async searches and their events: each key reads only its own mode’s search, feed and replays', async () => {
    const { live_key: live, test_key: test } = account;
    const testUrl = receiver.endpoint();
    const liveUrl = receiver.endpoint();
    const testSearch = AsyncSearchSchema.parse(
      (
        await api('/v1/searches', {
          key: test,
          body: { filters: { title_or: ['engineer'] }, limit: 5, webhook_url: testUrl },
        })
      ).body,
    );
    const liveSearch = AsyncSearchSchema.parse(
      (
        await api('/v1/searches', {
          key: live,
          body: { filters: { title_or: [uniqueWord()] }, limit: 5, webhook_url: liveUrl },
        })
      ).body,
    );
    expect((await finished(test, testSearch.id)).status).toBe('completed');
    await finished(live, liveSearch.id);
    expect((await api(`/v1/searches/${testSearch.id}`, { key: live })).status).toBe(404);
    expect((await api(`/v1/searches/${liveSearch.id}`, { key: test })).status).toBe(404);

    // The test search's search.completed is delivered to its webhook and is in the test feed only.
    await receiver.waitFor(testUrl, 1);
    const feed = async (key: string) => EventListResponseSchema.parse((await api('/v1/events', { key })).body).data;
    const testEvent = await eventually(
      async () => (await feed(test)).find((e) => e.type === 'search.completed' && e.data.search.id === testSearch.id),
      30_000,
      'the test event in the test feed',
      250,
    );
    const liveEvent = await eventually(
      async () => (await feed(live)).find((e) => e.type === 'search.completed' && e.data.search.id === liveSearch.id),
      30_000,
      'the live event in the live feed',
      250,
    );
    expect((await feed(test)).map((e) => e.id)).not.toContain(liveEvent.id);
    expect((await feed(live)).map((e) => e.id)).not.toContain(testEvent.id);
    expect((await api('/v1/webhooks/replay', { key: live, body: { event_id: testEvent.id } })).status).toBe(404);
    expect((await api('/v1/webhooks/replay', { key: test, body: { event_id: liveEvent.id } })).status).toBe(404);
    expect((await api('/v1/webhooks/replay', { key: test, body: { event_id: testEvent.id } })).status).toBe(202);
    await receiver.waitFor(testUrl, 2);
  });

  it(
    'idempotency: a test key reusing a live request’s ' +
      'Idempotency-Key runs its own request and never gets the live ' +
      'answer',
    async () => {
      const { live_key: live, test_key: test } = account;
      const headers = { 'idempotency-key': `mode-${uniqueWord()}` };
      const body = { filters: { title_or: ['engineer'] }, limit: 3 };
      const liveAnswer = await api('/v1/jobs/search', { key: live, body, headers });
      expect(liveAnswer.status).toBe(200);
      const testAnswer = await api('/v1/jobs/search', { key: test, body, headers });
      expect(testAnswer.status).toBe(200);
      expect(testAnswer.headers.get('idempotent-replayed')).toBeNull();
      const liveIds = JobSearchResponseSchema.parse(liveAnswer.body).data.map((j) => j.id);
      const testJobs = JobSearchResponseSchema.parse(testAnswer.body);
      expect(testJobs.metadata.credits_charged).toBe(0);
      expect(testJobs.data.map((j) => j.id).filter((id) => liveIds.includes(id))).toEqual([]);
      // each key's own retry replays its own answer
      expect((await api('/v1/jobs/search', { key: test, body, headers })).headers.get('idempotent-replayed')).toBe(
        'true',
      );
      expect((await api('/v1/jobs/search', { key: live, body, headers })).body).toEqual(liveAnswer.body);

      // the ids derived from the key differ too: the same key makes two searches, one per mode
      const searchHeaders = { 'idempotency-key': `mode-${uniqueWord()}` };
      const searchBody = { filters: { title_or: [uniqueWord()] }, limit: 2 };
      const liveSearch = AsyncSearchSchema.parse(
        (await api('/v1/searches', { key: live, body: searchBody, headers: searchHeaders })).body,
      );
      const testSearch = AsyncSearchSchema.parse(
        (await api('/v1/searches', { key: test, body: searchBody, headers: searchHeaders })).body,
      );
      expect(testSearch.id).not.toBe(liveSearch.id);
      expect((await api(`/v1/searches/${testSearch.id}`, { key: test })).status).toBe(200);
      expect((await api(`/v1/searches/${liveSearch.id}`, { key: test })).status).toBe(404);

      const watchHeaders = { 'idempotency-key': `mode-${uniqueWord()}` };
      const watchBody = { type: 'company', domain: `${uniqueWord()}.example`, webhook_url: receiver.endpoint() };
      const liveWatch = WatchSchema.parse(
        (await api('/v1/watches', { key: live, body: watchBody, headers: watchHeaders })).body,
      );
      const testWatch = WatchSchema.parse(
        (await api('/v1/watches', { key: test, body: watchBody, headers: watchHeaders })).body,
      );
      expect(testWatch.id).not.toBe(liveWatch.id);
      await api(`/v1/watches/${liveWatch.id}`, { key: live, method: 'DELETE' });
      await api(`/v1/watches/${testWatch.id}`, { key: test, method: 'DELETE' });
    },
  );
});
