import { ErrorEnvelopeSchema, EventListResponseSchema } from '@jobs/contracts';
import { api, createAccount } from '@jobs/e2e-support';
import { EventPublisher, eventually, makeEvent } from './webhook-kit.js';

describe('the event feed', () => {
  const publisher = new EventPublisher();
  beforeAll(() => publisher.start());
  afterAll(() => publisher.stop());

  const feed = (key: string, query = '') => api(`/v1/events${query}`, { key });
  const ids = (body: unknown) => EventListResponseSchema.parse(body).data.map((e) => e.id);

  it(
    'pages oldest first with since and limit, no gap and no ' +
      'repeat, resumes from the last cursor, and never shows ' +
      'another account',
    async () => {
      const a = await createAccount({ plan: 'pro', credits: 1 });
      const b = await createAccount({ plan: 'pro', credits: 1 });
      const empty = await feed(a.live_key);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual({ data: [], next_cursor: null });

      const aEvents = Array.from({ length: 7 }, (_, i) => makeEvent(i % 2 ? 'job.closed' : 'search.completed'));
      const bEvents = [makeEvent(), makeEvent()];
      await publisher.publish(a.account_id, aEvents, null);
      await publisher.publish(b.account_id, bEvents, null);
      const whole = await eventually(
        async () => {
          const page = await feed(a.live_key);
          return ids(page.body).length === 7 ? page : undefined;
        },
        20_000,
        "account A's 7 events in its feed",
      );
      expect(ids(whole.body)).toEqual(aEvents.map((e) => e.id));
      expect(EventListResponseSchema.parse(whole.body).data[1]).toEqual(aEvents[1]);

      const pages: string[][] = [];
      let cursor: string | null = null;
      let last: string | null = null;
      for (let guard = 0; guard < 10; guard++) {
        const page = await feed(a.live_key, `?limit=3${cursor ? `&since=${cursor}` : ''}`);
        expect(page.status).toBe(200);
        const parsed = EventListResponseSchema.parse(page.body);
        if (parsed.data.length === 0) {
          expect(parsed.next_cursor).toBeNull();
          break;
        }
        pages.push(parsed.data.map((e) => e.id));
        expect(parsed.next_cursor).not.toBeNull();
        cursor = parsed.next_cursor;
        last = cursor;
      }
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(aEvents.map((e) => e.id));

      // Read to its end, the feed still continues from the last cursor: exactly the newer events.
      const later = [makeEvent(), makeEvent('job.closed')];
      await publisher.publish(a.account_id, later, null);
      const resumed = await eventually(
        async () => {
          const page = await feed(a.live_key, `?since=${last}`);
          return ids(page.body).length === 2 ? page : undefined;
        },
        20_000,
        'the two newer events after the stored cursor',
      );
      expect(ids(resumed.body)).toEqual(later.map((e) => e.id));

      const bFeed = await eventually(
        async () => {
          const page = await feed(b.live_key);
          return ids(page.body).length === 2 ? page : undefined;
        },
        20_000,
        "account B's events",
      );
      expect(ids(bFeed.body)).toEqual(bEvents.map((e) => e.id));
      const aAll = ids((await feed(a.live_key)).body);
      for (const event of bEvents) expect(aAll).not.toContain(event.id);

      // Cursors are signed and bound to the account.
      const bCursor = EventListResponseSchema.parse(bFeed.body).next_cursor!;
      for (const since of [
        bCursor,
        `${last!.slice(0, -3)}${last!.endsWith('AAA') ? 'BBB' : 'AAA'}`,
        'cur_forged',
        'garbage',
      ]) {
        const refused = await feed(a.live_key, `?since=${encodeURIComponent(since)}`);
        expect(refused.status).toBe(400);
        expect(ErrorEnvelopeSchema.parse(refused.body).error).toMatchObject({
          code: 'invalid_request',
          param: 'since',
        });
      }
      for (const limit of ['0', '101', 'x']) {
        const refused = await feed(a.live_key, `?limit=${limit}`);
        expect(refused.status).toBe(400);
        expect(ErrorEnvelopeSchema.parse(refused.body).error).toMatchObject({
          code: 'invalid_request',
          param: 'limit',
        });
      }
      // A test key sees an empty feed; reading the feed is free.
      expect((await feed(a.test_key)).body).toEqual({ data: [], next_cursor: null });
      const account = await api('/v1/account', { key: a.live_key });
      expect(account.body!['credits_remaining']).toBe(1);
    },
  );

  it('shows an event stored with a field a newer producer added, and the events after it', async () => {
    const { account_id: accountId, live_key: key } = await createAccount({ plan: 'pro', credits: 1 });
    const newer = { ...makeEvent('search.completed'), priority: 'high' };
    const after = makeEvent('search.completed');
    await publisher.publishFromNewer(accountId, newer);
    await publisher.publish(accountId, [after], null);
    const page = await eventually(
      async () => {
        const res = await feed(key);
        return res.status === 200 && (res.body as { data: unknown[] }).data.length === 2 ? res : undefined;
      },
      20_000,
      'both events in the feed',
    );
    const { data } = page.body as { data: Record<string, unknown>[] };
    expect(data.map((e) => e['id'])).toEqual([newer.id, after.id]);
    // passed on as delivered: the newer field too
    expect(data[0]).toEqual(newer);
  });
});
