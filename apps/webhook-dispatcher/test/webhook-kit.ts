/**
 * Test kit of the webhook e2e tests: a real HTTP receiver on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE is
 * true in the test stack), events published to `event.emitted` as a producer would, and the
 * signature check exactly as interface.md tells receivers to do it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import pg from 'pg';
import { Topics, type Event, type EventEmitted } from '@jobs/contracts';
import { admin, createAccount, stack, type Receiver } from '@jobs/e2e-support';

// The receiver and the polling helper live in @jobs/e2e-support (the replica scenario uses them too).
export { eventually, Receiver, type Arrival, type Behaviour } from '@jobs/e2e-support';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let eventCounter = 0;

/** A valid event (search.completed, or job.closed from a watch) with a fresh id. */
export function makeEvent(kind: 'search.completed' | 'job.closed' = 'search.completed'): Event {
  const suffix = `${Date.now().toString(36)}${randomBytes(5).toString('hex')}${(eventCounter++).toString(36)}`;
  const created_at = new Date().toISOString();
  if (kind === 'search.completed') {
    return {
      id: `evt_${suffix}`,
      type: 'search.completed',
      created_at,
      watch_id: null,
      data: { search: { id: `srch_${suffix}`, status: 'completed', jobs_found: 3 } },
    };
  }
  return {
    id: `evt_${suffix}`,
    type: 'job.closed',
    created_at,
    watch_id: `wat_${suffix}`,
    data: {
      job: {
        id: `job_${suffix}`,
        title: 'Café Barista — Nuit',
        company: { id: `cmp_${suffix}`, name: 'Ünïcode Ltd', domain: 'unicode.example' },
        status: 'closed',
        closed_reason: 'filled',
      },
    },
  };
}

export class EventPublisher {
  private readonly producer: Producer = new Kafka({
    clientId: 'e2e-webhooks',
    brokers: stack.kafkaBrokers,
    logLevel: logLevel.NOTHING,
  }).producer();

  async start(): Promise<void> {
    await this.producer.connect();
  }

  /**
   * Publishes events of one account, in order, keyed by the account like every producer does (`headers`: e.g. a
   * traceparent).
   */
  async publish(
    accountId: string,
    events: Event[],
    webhookUrl: string | null,
    headers?: Record<string, string>,
  ): Promise<EventEmitted.Value[]> {
    const values = events.map((event) =>
      Topics.EventEmitted.value.parse({ v: 1, account_id: accountId, event, webhook_url: webhookUrl }),
    );
    await this.producer.send({
      topic: Topics.EventEmitted.name,
      messages: values.map((value) => ({
        key: Topics.EventEmitted.keyOf(value),
        value: JSON.stringify(value),
        ...(headers ? { headers } : {}),
      })),
    });
    return values;
  }

  /** Publishes one event as a newer producer would, with fields this version's schema does not know. */
  async publishFromNewer(accountId: string, event: Record<string, unknown>): Promise<void> {
    const value = { v: 1, account_id: accountId, event, webhook_url: null };
    await this.producer.send({
      topic: Topics.EventEmitted.name,
      messages: [{ key: accountId, value: JSON.stringify(value) }],
    });
  }

  async stop(): Promise<void> {
    await this.producer.disconnect();
  }
}

/** What a delivery spec works with beside its receiver and publisher: the stack's database and a Pro account. */
export interface DeliveryWorld {
  db: pg.Client;
  account: { account_id: string; live_key: string; test_key: string };
}

/** Starts the receiver and the publisher, connects to the stack's database (DATABASE_URL), makes the account. */
export async function startDeliveries(receiver: Receiver, publisher: EventPublisher): Promise<DeliveryWorld> {
  await receiver.start();
  await publisher.start();
  const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await db.connect();
  const account = await createAccount({ plan: 'pro', credits: 10 });
  return { db, account };
}

export async function stopDeliveries(receiver: Receiver, publisher: EventPublisher, db: pg.Client): Promise<void> {
  await publisher.stop();
  await receiver.stop();
  await db.end();
}

/** The endpoint's signing secret from the admin API (operator.md). */
export async function secretOf(accountId: string, url: string): Promise<string> {
  const answer = await admin('GET', `/accounts/${accountId}/webhook-secret?url=${encodeURIComponent(url)}`);
  return String(answer!['secret']);
}

/**
 * interface.md, Delivery 3, as a receiver does it: split the header on ",", each part on the
 * first "=", compare hex to hex in constant time, and refuse a `t` more than 5 minutes away.
 */
export function receiverVerifies(
  header: string | string[] | undefined,
  secret: string,
  rawBody: string,
  now = Date.now(),
): { ok: boolean; t: number } {
  if (typeof header !== 'string') return { ok: false, t: 0 };
  const parts = new Map<string, string[]>();
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const name = part.slice(0, at);
    parts.set(name, [...(parts.get(name) ?? []), part.slice(at + 1)]);
  }
  const t = Number(parts.get('t')?.[0]);
  if (!Number.isInteger(t)) return { ok: false, t: 0 };
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${rawBody}`).digest('hex'));
  const matches = (parts.get('v1') ?? []).some((v1) => {
    const given = Buffer.from(v1);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  return { ok: matches && Math.abs(now / 1000 - t) <= 300, t };
}

/** WEBHOOK_RETRY_SCALE of the running stack (scripts/stack.mjs passes it; test stacks use 0.001). */
export const RETRY_SCALE = Number(process.env['WEBHOOK_RETRY_SCALE'] ?? '0.001');
export const SCHEDULE_MS = [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000, 43_200_000, 86_400_000].map(
  (ms) => ms * RETRY_SCALE,
);
