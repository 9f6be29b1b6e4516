import { randomBytes } from 'node:crypto';
import type pg from 'pg';
import type { Event } from '@jobs/contracts';
import { ancestry, createAccount, killService, OtlpReceiver, servicePid, waitForStackReady } from '@jobs/e2e-support';
import {
  EventPublisher,
  eventually,
  makeEvent,
  Receiver,
  receiverVerifies,
  SCHEDULE_MS,
  secretOf,
  startDeliveries,
  stopDeliveries,
  type DeliveryWorld,
} from './webhook-kit.js';

/**
 * Webhook deliveries end to end: events published on `event.emitted` (as the watch matcher,
 * billing and the orchestrator do) reach a real receiver, signed, retried on the scaled schedule,
 * durably across a dispatcher crash, without a slow endpoint holding the others. Replays:
 * webhook-replay.e2e-spec.ts; the feed over the public API: event-feed.e2e-spec.ts.
 */
describe('webhook deliveries', () => {
  const receiver = new Receiver();
  const publisher = new EventPublisher();
  let db: pg.Client;
  let account: DeliveryWorld['account'];
  /** An endpoint that always fails, started first: its whole schedule (~86 s) runs beside the other tests. */
  let doomed: { url: string; event: Event; publishedAt: number };

  beforeAll(async () => {
    ({ db, account } = await startDeliveries(receiver, publisher));
    const url = receiver.endpoint(() => 500);
    const event = makeEvent();
    doomed = { url, event, publishedAt: Date.now() };
    await publisher.publish(account.account_id, [event], url);
  });

  afterAll(() => stopDeliveries(receiver, publisher, db));

  const attemptsOf = async (eventId: string) =>
    (
      await db.query<{
        kind: string;
        number: number;
        outcome: string;
        status_code: number | null;
        error: string | null;
        status: string;
      }>(
        `SELECT d.kind, d.status, a.number, a.outcome, a.status_code, a.error
         FROM webhook_events e JOIN webhook_deliveries d ON d.event_position = e.position
         JOIN webhook_attempts a ON a.delivery_id = d.id
         WHERE e.event_id = $1 ORDER BY d.created_at, a.number`,
        [eventId],
      )
    ).rows;

  it(
    'POSTs the stored event, signed as interface.md tells ' +
      'receivers to verify, with the secret of the admin API; a ' +
      'redelivered event is stored and sent once',
    async () => {
      const url = receiver.endpoint();
      const event = makeEvent('job.closed');
      const [message] = await publisher.publish(account.account_id, [event], url);
      const [arrival] = await receiver.waitFor(url, 1);
      // The delivery made the secret before anyone asked the admin API: the admin API returns that one.
      const secret = await secretOf(account.account_id, url);
      expect(secret).toMatch(/^whsec_/);
      expect(arrival!.headers['content-type']).toBe('application/json');
      expect(receiverVerifies(arrival!.headers['service-signature'], secret, arrival!.raw).ok).toBe(true);
      expect(receiverVerifies(arrival!.headers['service-signature'], 'whsec_wrong', arrival!.raw).ok).toBe(false);
      expect(
        receiverVerifies(arrival!.headers['service-signature'], secret, arrival!.raw.replace('filled', 'expired')).ok,
      ).toBe(false);
      expect(JSON.parse(arrival!.raw)).toEqual(message!.event);

      // The same event again (a producer's retry or Kafka redelivery), then a sentinel behind it on the same partition.
      const sentinel = makeEvent();
      await publisher.publish(account.account_id, [event], url);
      await publisher.publish(account.account_id, [sentinel], url);
      await receiver.waitFor(url, 2);
      const ids = receiver.at(url).map((a) => (JSON.parse(a.raw) as Event).id);
      expect(ids.filter((id) => id === event.id)).toHaveLength(1);
      expect(ids).toContain(sentinel.id);
      const stored = await db.query('SELECT count(*)::int AS n FROM webhook_events WHERE event_id = $1', [event.id]);
      expect(stored.rows[0].n).toBe(1);
      expect(await attemptsOf(event.id)).toEqual([
        expect.objectContaining({
          kind: 'original',
          number: 1,
          outcome: 'succeeded',
          status_code: 200,
          status: 'succeeded',
        }),
      ]);
    },
  );

  it(
    "joins the event's trace: each attempt is a span under the " +
      'consumer span that stored the event, a retry too; no trace context goes to the endpoint',
    async () => {
      const port = Number(process.env['OTLP_RECEIVER_PORT']);
      if (!Number.isInteger(port) || port <= 0)
        throw new Error('OTLP_RECEIVER_PORT is not set: run through npm test / the stack e2e mode');
      const traces = new OtlpReceiver();
      await traces.listen(port);
      try {
        // A producer's sampled trace context, as libs/kafka's publisher sends it.
        const traceId = randomBytes(16).toString('hex');
        const url = receiver.endpoint((n) => (n === 1 ? 503 : 200));
        const event = makeEvent();
        await publisher.publish(account.account_id, [event], url, {
          traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01`,
        });
        const arrivals = await receiver.waitFor(url, 2);
        // The customer's endpoint is outside the trust boundary: our trace context stays ours.
        for (const arrival of arrivals) expect(arrival.headers['traceparent']).toBeUndefined();
        const spans = await eventually(
          async () => {
            const all = traces.trace(traceId);
            return all.filter((s) => s.name === 'webhook deliver').length === 2 ? all : undefined;
          },
          30_000,
          'two delivery spans in the trace',
        );
        const stored = spans.find((s) => s.service === 'webhook-dispatcher' && s.name === 'event.emitted process');
        expect(stored).toBeDefined();
        const attempts = spans.filter((s) => s.name === 'webhook deliver').sort((a, b) => a.startMs - b.startMs);
        expect(
          attempts.map((s) => [
            s.service,
            s.attributes['jobs.event.id'],
            s.attributes['jobs.delivery.attempt'],
            s.attributes['jobs.delivery.outcome'],
          ]),
        ).toEqual([
          ['webhook-dispatcher', event.id, 1, 'failed'],
          ['webhook-dispatcher', event.id, 2, 'succeeded'],
        ]);
        for (const attempt of attempts) expect(ancestry(spans, attempt)).toContain(stored);
        // The attempt's span is the POST's client span; the HTTP instrumentation adds none of its own.
        expect(spans.filter((s) => attempts.some((attempt) => s.parentSpanId === attempt.spanId))).toEqual([]);
      } finally {
        await traces.close();
      }
    },
  );

  it(
    'retries a failing endpoint on the scaled schedule, measured ' +
      'from the first failure, with the same id and bytes, until it ' +
      'answers 2xx',
    async () => {
      const url = receiver.endpoint((n) => (n <= 3 ? 503 : 204));
      const event = makeEvent();
      await publisher.publish(account.account_id, [event], url);
      const arrivals = await receiver.waitFor(url, 4, 60_000);
      const secret = await secretOf(account.account_id, url);
      for (const arrival of arrivals) {
        expect(arrival.raw).toBe(arrivals[0]!.raw);
        expect(receiverVerifies(arrival.headers['service-signature'], secret, arrival.raw).ok).toBe(true);
      }
      expect((JSON.parse(arrivals[0]!.raw) as Event).id).toBe(event.id);
      // Retry k comes no earlier than its slot after the first failed attempt.
      for (let k = 1; k < 4; k++) expect(arrivals[k]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(SCHEDULE_MS[k - 1]!);
      const attempts = await eventually(
        async () => {
          const rows = await attemptsOf(event.id);
          return rows.at(-1)?.outcome === 'succeeded' ? rows : undefined;
        },
        10_000,
        'the fourth attempt to be recorded',
      );
      expect(attempts.map((a) => [a.number, a.outcome, a.status_code])).toEqual([
        [1, 'failed', 503],
        [2, 'failed', 503],
        [3, 'failed', 503],
        [4, 'succeeded', 204],
      ]);
      expect(attempts.every((a) => a.status === 'succeeded')).toBe(true);
    },
  );

  it('records a delivery it cannot sign as a failed attempt, retried on schedule, never sent unsigned', async () => {
    const url = receiver.endpoint();
    const other = receiver.endpoint();
    const secret = await secretOf(account.account_id, url);
    await secretOf(account.account_id, other);
    const sealedOf = async (endpoint: string) =>
      (
        await db.query<{ secret: string }>(
          `SELECT secret FROM webhook_endpoint_secrets WHERE account_id = $1 AND url = $2 AND mode = 'live'`,
          [account.account_id, endpoint],
        )
      ).rows[0]!.secret;
    const seal = (endpoint: string, sealed: string) =>
      db.query(`UPDATE webhook_endpoint_secrets SET secret = $3 WHERE account_id = $1 AND url = $2 AND mode = 'live'`, [
        account.account_id,
        endpoint,
        sealed,
      ]);
    const own = await sealedOf(url);
    // another endpoint's sealed secret does not open on this row (as one sealed under a key since replaced)
    await seal(url, await sealedOf(other));
    const event = makeEvent();
    await publisher.publish(account.account_id, [event], url);
    const failed = await eventually(
      async () => {
        const attempts = await attemptsOf(event.id);
        return attempts.length >= 2 ? attempts : undefined;
      },
      30_000,
      'two failed attempts',
    );
    const unsigned = { outcome: 'failed', status_code: null, error: 'not sent: the delivery could not be signed' };
    expect(failed.slice(0, 2)).toEqual([
      expect.objectContaining({ number: 1, ...unsigned }),
      expect.objectContaining({ number: 2, ...unsigned }),
    ]);
    expect(failed[0]!.status).toBe('pending');
    expect(receiver.at(url)).toEqual([]);
    // the secret opens again: the next retry of the schedule sends it, signed
    await seal(url, own);
    const [arrival] = await receiver.waitFor(url, 1);
    expect(receiverVerifies(arrival!.headers['service-signature'], secret, arrival!.raw).ok).toBe(true);
    expect((await attemptsOf(event.id)).at(-1)).toMatchObject({ outcome: 'succeeded', status: 'succeeded' });
  });

  it('a retry survives a SIGKILL of the dispatcher: the restarted process sends it', async () => {
    const url = receiver.endpoint((n) => (n <= 3 ? 500 : 200));
    const event = makeEvent();
    await publisher.publish(account.account_id, [event], url);
    // Three failures recorded (the next retry is due 1.8 s x scale-adjusted after the first): crash now.
    await eventually(
      async () => {
        const rows = await attemptsOf(event.id);
        return rows.length === 3 && rows.every((r) => r.outcome === 'failed') ? rows : undefined;
      },
      30_000,
      'three failed attempts',
    );
    const before = servicePid('webhook-dispatcher');
    const killedAt = Date.now();
    killService('webhook-dispatcher');
    await waitForStackReady();
    expect(servicePid('webhook-dispatcher')).not.toBe(before);
    const arrivals = await receiver.waitFor(url, 4, 90_000);
    expect(arrivals[3]!.at).toBeGreaterThan(killedAt);
    const attempts = await eventually(
      async () => {
        const rows = await attemptsOf(event.id);
        return rows.some((r) => r.outcome === 'succeeded') ? rows : undefined;
      },
      10_000,
      'the successful attempt to be recorded',
    );
    expect(attempts.filter((a) => a.outcome === 'failed')).toHaveLength(3);
    expect(attempts.at(-1)).toMatchObject({ outcome: 'succeeded', status: 'succeeded' });
  });

  it(
    'an endpoint that hangs does not delay another: the fast one ' +
      'is served while the slow one still hangs, which then fails ' +
      'at the 10 s deadline',
    async () => {
      const slow = receiver.endpoint((n) => (n === 1 ? 'hang' : 200));
      const fast = receiver.endpoint();
      const slowEvent = makeEvent();
      const fastEvent = makeEvent();
      await publisher.publish(account.account_id, [slowEvent], slow);
      await receiver.waitFor(slow, 1);
      await publisher.publish(account.account_id, [fastEvent], fast);
      await receiver.waitFor(fast, 1);
      // Causality, not timing: the slow endpoint's request is still unanswered when the fast one arrived.
      expect(receiver.isHanging(slow)).toBe(true);
      const attempts = await eventually(
        async () => {
          const rows = await attemptsOf(slowEvent.id);
          return rows[0]?.outcome === 'failed' ? rows : undefined;
        },
        30_000,
        'the hanging attempt to fail',
      );
      expect(attempts[0]).toMatchObject({ number: 1, status_code: null, error: 'no answer within 10000 ms' });
      await receiver.waitFor(slow, 2);
      expect(receiver.at(slow).map((a) => (JSON.parse(a.raw) as Event).id)).toEqual([slowEvent.id, slowEvent.id]);
    },
  );

  it('dead endpoints with a backlog hold two slots each, not every slot: another is served meanwhile', async () => {
    let dead = true;
    const deadUrls = [1, 2, 3, 4, 5].map(() => receiver.endpoint(() => (dead ? 'hang' : 200)));
    try {
      // all at once: the fast endpoint must be served well within the first hangs' 10 s; sixteen each,
      // so that at sixteen slots an endpoint the five would hold every one of the 64
      await Promise.all(
        deadUrls.map((url) =>
          publisher.publish(
            account.account_id,
            Array.from({ length: 16 }, () => makeEvent()),
            url,
          ),
        ),
      );
      await Promise.all(deadUrls.map((url) => receiver.waitFor(url, 1)));
      const fast = receiver.endpoint();
      await publisher.publish(account.account_id, [makeEvent()], fast);
      await receiver.waitFor(fast, 1);
      // served while every dead endpoint's first attempt still hangs, and none of them was sent more than its first two
      for (const url of deadUrls) {
        expect([url, receiver.isHanging(url)]).toEqual([url, true]);
        expect(receiver.at(url).length).toBeLessThanOrEqual(2);
      }
    } finally {
      // their retries are answered: nothing of this test hangs on beside the next ones
      dead = false;
    }
  });

  it("one account's many hanging endpoints hold that account's share of slots: another account is served", async () => {
    let dead = true;
    // forty endpoints of one account, two deliveries each: at two first attempts an endpoint, more
    // than a replica's 64 slots, were no account bounded
    const busy = await createAccount({ plan: 'pro', credits: 10 });
    const deadUrls = Array.from({ length: 40 }, () => receiver.endpoint(() => (dead ? 'hang' : 200)));
    const sent = () => deadUrls.reduce((n, url) => n + receiver.at(url).length, 0);
    try {
      await Promise.all(deadUrls.map((url) => publisher.publish(busy.account_id, [makeEvent(), makeEvent()], url)));
      await eventually(() => (sent() >= 32 ? true : undefined), 8_000, "32 of the busy account's attempts");
      const fast = receiver.endpoint();
      await publisher.publish(account.account_id, [makeEvent()], fast);
      await receiver.waitFor(fast, 1);
      // served while every attempt of the busy account still hangs (each for 10 s)
      const hung = deadUrls.filter((url) => receiver.at(url).length > 0);
      expect(hung.filter((url) => !receiver.isHanging(url))).toEqual([]);
    } finally {
      dead = false;
    }
  });

  it('gives up after the seventh retry, 24 h (scaled) after the first failure, each attempt on its slot', async () => {
    // at most 8 attempts: a slot already past when the attempt before it failed is skipped (on a
    // loaded machine at this scale, a few ms can pass one), never crowded in
    const attempts = await eventually(
      async () => {
        const rows = await attemptsOf(doomed.event.id);
        return rows.at(-1)?.status === 'failed' ? rows : undefined;
      },
      150_000,
      'the delivery to give up',
    );
    expect(attempts.length).toBeGreaterThanOrEqual(2);
    expect(attempts.length).toBeLessThanOrEqual(8);
    expect(attempts.every((a) => a.outcome === 'failed' && a.status_code === 500)).toBe(true);
    const arrivals = receiver.at(doomed.url);
    expect(arrivals).toHaveLength(attempts.length);
    for (let k = 1; k < arrivals.length; k++)
      expect(arrivals[k]!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(SCHEDULE_MS[k - 1]!);
    // the last try is the seventh retry's slot or later: it gave up no earlier than 24 h (scaled)
    expect(arrivals.at(-1)!.at - arrivals[0]!.at).toBeGreaterThanOrEqual(SCHEDULE_MS[6]!);
  });
});
