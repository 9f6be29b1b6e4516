import type pg from 'pg';
import { ErrorEnvelopeSchema, WebhookReplayResponseSchema } from '@jobs/contracts';
import { api, createAccount } from '@jobs/e2e-support';
import {
  EventPublisher,
  eventually,
  makeEvent,
  Receiver,
  receiverVerifies,
  secretOf,
  sleep,
  startDeliveries,
  stopDeliveries,
  type DeliveryWorld,
} from './webhook-kit.js';

/** Replays over the public API: the stored event again, the same bytes freshly signed, once per Idempotency-Key. */
describe('webhook replays', () => {
  const receiver = new Receiver();
  const publisher = new EventPublisher();
  let db: pg.Client;
  let account: DeliveryWorld['account'];

  beforeAll(async () => {
    ({ db, account } = await startDeliveries(receiver, publisher));
  });

  afterAll(() => stopDeliveries(receiver, publisher, db));

  it(
    'replays an event: 202 queued, same id and bytes with a fresh ' +
      'signature, never a second replay for one Idempotency-Key; ' +
      '404 unknown, 400 malformed or feed-only',
    async () => {
      const url = receiver.endpoint();
      const event = makeEvent('job.closed');
      await publisher.publish(account.account_id, [event], url);
      const [first] = await receiver.waitFor(url, 1);
      await sleep(1100); // a later second, so the replay's signature timestamp differs

      const replay = await api('/v1/webhooks/replay', {
        key: account.live_key,
        body: { event_id: event.id },
        headers: { 'Idempotency-Key': `replay-${event.id}` },
      });
      expect(replay.status).toBe(202);
      expect(WebhookReplayResponseSchema.parse(replay.body)).toEqual({ event_id: event.id, status: 'queued' });
      const [, again] = await receiver.waitFor(url, 2);
      expect(again!.raw).toBe(first!.raw);
      const secret = await secretOf(account.account_id, url);
      const signed = receiverVerifies(again!.headers['service-signature'], secret, again!.raw);
      expect(signed.ok).toBe(true);
      expect(signed.t).toBeGreaterThan(receiverVerifies(first!.headers['service-signature'], secret, first!.raw).t);

      const retried = await api('/v1/webhooks/replay', {
        key: account.live_key,
        body: { event_id: event.id },
        headers: { 'Idempotency-Key': `replay-${event.id}` },
      });
      expect(retried.status).toBe(202);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      const replays = await db.query(
        `SELECT count(*)::int AS n FROM webhook_deliveries d JOIN ` +
          `webhook_events e ON e.position = d.event_position WHERE ` +
          `e.event_id = $1 AND d.kind = 'replay'`,
        [event.id],
      );
      expect(replays.rows[0].n).toBe(1);

      const unknown = await api('/v1/webhooks/replay', {
        key: account.live_key,
        body: { event_id: 'evt_doesnotexist' },
      });
      expect(unknown.status).toBe(404);
      expect(ErrorEnvelopeSchema.parse(unknown.body).error.code).toBe('not_found');
      const malformed = await api('/v1/webhooks/replay', { key: account.live_key, body: { event_id: 'job_123' } });
      expect(malformed.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(malformed.body).error).toMatchObject({
        code: 'invalid_request',
        param: 'event_id',
      });
      const other = await createAccount({ plan: 'pro', credits: 1 });
      const foreign = await api('/v1/webhooks/replay', { key: other.live_key, body: { event_id: event.id } });
      expect(foreign.status).toBe(404);

      const feedOnly = makeEvent();
      await publisher.publish(account.account_id, [feedOnly], null);
      await eventually(
        async () =>
          (await db.query('SELECT 1 FROM webhook_events WHERE event_id = $1', [feedOnly.id])).rowCount
            ? true
            : undefined,
        15_000,
        'the feed-only event',
      );
      const noEndpoint = await api('/v1/webhooks/replay', { key: account.live_key, body: { event_id: feedOnly.id } });
      expect(noEndpoint.status).toBe(400);
      expect(ErrorEnvelopeSchema.parse(noEndpoint.body).error).toMatchObject({
        code: 'invalid_request',
        param: 'event_id',
      });
    },
  );
});
