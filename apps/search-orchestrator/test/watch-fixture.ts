// What the watch e2e suites share: a Kafka producer and a tap on the events' topics, a webhook
// receiver that answers 200, the database, and helpers that create watches and publish changes.
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import pg from 'pg';
import {
  EventSchema,
  examples,
  WatchListResponseSchema,
  WatchSchema,
  type CompanyHiringChanged,
  type Event,
  type EventChargeRequested,
  type Job,
  type JobLifecycleChanged,
  type Watch,
} from '@jobs/contracts';
import { api, createAccount, stack, TopicTap, uniqueWord } from '@jobs/e2e-support';

export const WATCH_EVENTS = [
  'job.opened',
  'job.updated',
  'job.closed',
  'job.reposted',
  'company.hiring_started',
  'company.hiring_stopped',
];
export const WAIT_MS = 30_000;

let producer: Producer;
/** One tap for both topics: two taps made in the same millisecond would share a consumer group. */
export let tap: TopicTap;
let receiver: Server;
export let webhookUrl: string;
export let db: pg.Client;

/** Starts the shared pieces before a suite's tests and stops them after. */
export function useWatchFixture(): void {
  beforeAll(startFixture);
  afterAll(stopFixture);
}

async function startFixture(): Promise<void> {
  const kafka = new Kafka({ clientId: 'e2e-watches', brokers: stack.kafkaBrokers, logLevel: logLevel.NOTHING });
  producer = kafka.producer();
  await producer.connect();
  tap = new TopicTap(['event.emitted', 'refresh.fetch.requested', 'refresh.pass.fetch.requested']);
  await tap.start();
  // A real endpoint for the watches' webhook_url (deliveries are the dispatcher's; they answer 200).
  receiver = createServer((req, res) => {
    req.resume();
    req.on('end', () => res.writeHead(200).end());
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  webhookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
  db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await db.connect();
}

async function stopFixture(): Promise<void> {
  // Every refresh pass reads each live watch's scope: leave none behind for later suites.
  for (const { key, id } of created) await api(`/v1/watches/${id}`, { key, method: 'DELETE' });
  await Promise.all([tap.stop(), producer.disconnect(), db.end()]);
  await new Promise((resolve) => receiver.close(resolve));
}

export async function pro(credits = 100) {
  return createAccount({ plan: 'pro', credits });
}

const created: { key: string; id: string }[] = [];

export async function createWatch(
  key: string,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<Watch> {
  const res = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body }, headers });
  if (res.status !== 201) throw new Error(`POST /v1/watches answered ${res.status}: ${JSON.stringify(res.body)}`);
  const watch = WatchSchema.parse(res.body);
  created.push({ key, id: watch.id });
  return watch;
}

export async function listAll(key: string): Promise<{ pages: Watch[][]; ids: string[] }> {
  const pages: Watch[][] = [];
  let cursor: string | null = null;
  do {
    const res = await api(`/v1/watches${cursor ? `?cursor=${cursor}` : ''}`, { key });
    expect(res.status).toBe(200);
    const page = WatchListResponseSchema.parse(res.body);
    pages.push(page.data);
    cursor = page.next_cursor;
  } while (cursor && pages.length < 100);
  return { pages, ids: pages.flat().map((w) => w.id) };
}

export function newDomain(): string {
  return `${uniqueWord()}.example`;
}

/** A canonical job at `domain`, as dedupe would carry it in a lifecycle change. */
export function jobAt(domain: string, overrides: Partial<Job> = {}): Job {
  const word = uniqueWord();
  return {
    ...examples.job(),
    id: `job_${randomBytes(8).toString('hex')}`,
    title: `${word[0]!.toUpperCase()}${word.slice(1)} Engineer`,
    company: { id: `cmp_${randomBytes(6).toString('hex')}`, name: `${domain} Ltd`, domain },
    first_seen_at: new Date().toISOString(),
    last_seen_at: new Date().toISOString(),
    ...overrides,
  };
}

/** `key` defaults to the job id (the topic's key); another job's id puts the change in order behind that job's. */
export async function publishChange(
  change: JobLifecycleChanged.JobChange,
  job: Job,
  overrides: Partial<JobLifecycleChanged.Value> = {},
  key = job.id,
): Promise<JobLifecycleChanged.Value> {
  const value: JobLifecycleChanged.Value = {
    v: 1,
    change_id: `chg_${randomBytes(8).toString('hex')}`,
    change,
    changed_fields: change === 'updated' ? ['salary'] : [],
    job,
    occurred_at: new Date().toISOString(),
    ...overrides,
  };
  await producer.send({ topic: 'job.lifecycle.changed', messages: [{ key, value: JSON.stringify(value) }] });
  return value;
}

export async function publishHiring(domain: string, value: boolean | null): Promise<CompanyHiringChanged.Value> {
  const change: CompanyHiringChanged.Value = {
    v: 1,
    change_id: `chg_${randomBytes(8).toString('hex')}`,
    company: { id: 'cmp_hiring', name: `${domain} Ltd`, domain },
    is_hiring: { value, confidence: 0.8, basis: 'open jobs seen in the last day' },
    previous: null,
    occurred_at: new Date().toISOString(),
  };
  await producer.send({ topic: 'company.hiring.changed', messages: [{ key: domain, value: JSON.stringify(change) }] });
  return change;
}

/** What a matcher sends billing, published as it would (keyed by account). */
export async function publishEventCharge(value: EventChargeRequested.Value): Promise<void> {
  await producer.send({
    topic: 'event.charge.requested',
    messages: [{ key: value.account_id, value: JSON.stringify(value) }],
  });
}

/** The first `event.emitted` of a watch matching `predicate`, checked against the Event contract. */
export async function eventOf(
  watchId: string,
  predicate: (event: Event) => boolean = () => true,
): Promise<{ event: Event; value: Record<string, unknown> }> {
  const seen = await tap.waitFor((m) => {
    const event = m.topic === 'event.emitted' ? (m.value['event'] as Event | undefined) : undefined;
    return event?.watch_id === watchId && predicate(event);
  }, WAIT_MS);
  return { event: EventSchema.parse(seen.value['event']), value: seen.value };
}

export const eventsOf = (watchId: string) =>
  tap.seen
    .filter((m) => m.topic === 'event.emitted')
    .map((m) => m.value['event'] as Event)
    .filter((e) => e.watch_id === watchId);

export async function creditsOf(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  expect(res.status).toBe(200);
  return res.body!['credits_remaining'] as number;
}
