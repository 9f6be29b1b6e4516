import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Kafka, logLevel, type Producer } from 'kafkajs';
import pg from 'pg';
import {
  ErrorEnvelopeSchema,
  EventSchema,
  examples,
  PROVIDER_SLUGS,
  WatchListResponseSchema,
  WatchSchema,
  type CompanyHiringChanged,
  type Event,
  type Job,
  type JobLifecycleChanged,
  type Watch,
} from '@jobs/contracts';
import { admin, api, createAccount, stack, TopicTap, uniqueWord, refreshPass, wholeLedger } from '@jobs/e2e-support';

/**
 * Watches over HTTP (POST/GET/DELETE /v1/watches), the refresh planner (POST /admin/refresh ->
 * refresh.fetch.requested per scope and provider) and the watch matcher: lifecycle and hiring
 * changes published on their Kafka topics (as dedupe publishes them) become events on
 * `event.emitted`, `job.opened` charged by billing (ledger line, held without credits and
 * released after a top-up), every other event free.
 */
const WATCH_EVENTS = ['job.opened', 'job.updated', 'job.closed', 'job.reposted', 'company.hiring_started', 'company.hiring_stopped'];
const WAIT_MS = 30_000;

let producer: Producer;
/** One tap for both topics: two taps made in the same millisecond would share a consumer group. */
let tap: TopicTap;
let receiver: Server;
let webhookUrl: string;
let db: pg.Client;

beforeAll(async () => {
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
});

afterAll(async () => {
  // Every refresh pass reads each live watch's scope: leave none behind for later suites.
  for (const { key, id } of created) await api(`/v1/watches/${id}`, { key, method: 'DELETE' });
  await Promise.all([tap.stop(), producer.disconnect(), db.end()]);
  await new Promise((resolve) => receiver.close(resolve));
});

async function pro(credits = 100) {
  return createAccount({ plan: 'pro', credits });
}

const created: { key: string; id: string }[] = [];

async function createWatch(key: string, body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Watch> {
  const res = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body }, headers });
  if (res.status !== 201) throw new Error(`POST /v1/watches answered ${res.status}: ${JSON.stringify(res.body)}`);
  const watch = WatchSchema.parse(res.body);
  created.push({ key, id: watch.id });
  return watch;
}

async function listAll(key: string): Promise<{ pages: Watch[][]; ids: string[] }> {
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

function newDomain(): string {
  return `${uniqueWord()}.example`;
}

/** A canonical job at `domain`, as dedupe would carry it in a lifecycle change. */
function jobAt(domain: string, overrides: Partial<Job> = {}): Job {
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
async function publishChange(change: JobLifecycleChanged.JobChange, job: Job, overrides: Partial<JobLifecycleChanged.Value> = {}, key = job.id): Promise<JobLifecycleChanged.Value> {
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

async function publishHiring(domain: string, value: boolean | null): Promise<CompanyHiringChanged.Value> {
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

/** The first `event.emitted` of a watch matching `predicate`, checked against the Event contract. */
async function eventOf(watchId: string, predicate: (event: Event) => boolean = () => true): Promise<{ event: Event; value: Record<string, unknown> }> {
  const seen = await tap.waitFor((m) => {
    const event = m.topic === 'event.emitted' ? (m.value['event'] as Event | undefined) : undefined;
    return event?.watch_id === watchId && predicate(event);
  }, WAIT_MS);
  return { event: EventSchema.parse(seen.value['event']), value: seen.value };
}

const eventsOf = (watchId: string) =>
  tap.seen
    .filter((m) => m.topic === 'event.emitted')
    .map((m) => m.value['event'] as Event)
    .filter((e) => e.watch_id === watchId);

async function creditsOf(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  expect(res.status).toBe(200);
  return res.body!['credits_remaining'] as number;
}

describe('watches over HTTP', () => {
  it('creates a company watch (201, active, every job and company event by default) and a search watch', async () => {
    const { live_key: key } = await pro();
    const domain = newDomain();
    const company = await createWatch(key, { type: 'company', domain });
    expect(company).toMatchObject({ type: 'company', domain, filters: null, webhook_url: webhookUrl, status: 'active' });
    expect([...company.events].sort()).toEqual([...WATCH_EVENTS].sort());
    expect(company.id).toMatch(/^wat_/);
    // A word no opening has: a broad saved search would make every refresh pass read thousands of listings.
    const word = uniqueWord();
    const search = await createWatch(key, { type: 'search', filters: { title_or: [word], country_code_or: ['GB'] }, events: ['job.opened', 'job.closed'] });
    expect(search).toMatchObject({ type: 'search', domain: null, filters: { title_or: [word], country_code_or: ['GB'] }, events: ['job.opened', 'job.closed'] });
  });

  it('gives the same watch for a retried Idempotency-Key', async () => {
    const { live_key: key } = await pro();
    const idem = { 'Idempotency-Key': `watch-${uniqueWord()}` };
    const body = { type: 'company', domain: newDomain() };
    const first = await createWatch(key, body, idem);
    const again = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body }, headers: idem });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body!['id']).toBe(first.id);
    expect((await listAll(key)).ids).toEqual([first.id]);
  });

  it.each(['free', 'starter', 'growth'])('refuses watches on the %s plan with 403 plan_required (required_plan pro)', async (plan) => {
    const { live_key: key } = await createAccount({ plan, credits: 10 });
    const res = await api('/v1/watches', { key, body: { type: 'company', domain: newDomain(), webhook_url: webhookUrl } });
    expect(res.status).toBe(403);
    const { error } = ErrorEnvelopeSchema.parse(res.body);
    expect(error).toMatchObject({ code: 'plan_required', type: 'permission_error', required_plan: 'pro' });
  });

  it.each([
    ['a company watch without domain', { type: 'company' }, 'invalid_request', 'domain'],
    ['a search watch without filters', { type: 'search' }, 'invalid_request', 'filters'],
    ['an unknown type', { type: 'person', domain: 'acme.example' }, 'invalid_request', 'type'],
    ['an unknown property', { type: 'company', domain: 'acme.example', paused: true }, 'invalid_request', undefined],
    ['search.completed as a watch event', { type: 'company', domain: 'acme.example', events: ['search.completed'] }, 'invalid_request', undefined],
    ['an unknown filter', { type: 'search', filters: { titel_or: ['x'] } }, 'unknown_filter', 'filters.titel_or'],
    ['a webhook_url that is not a URL', { type: 'company', domain: 'acme.example', webhook_url: 'not a url' }, 'invalid_request', 'webhook_url'],
  ])('answers 400 for %s', async (_name, body, code, param) => {
    const { live_key: key } = await pro();
    const res = await api('/v1/watches', { key, body: { webhook_url: webhookUrl, ...body } });
    expect(res.status).toBe(400);
    const { error } = ErrorEnvelopeSchema.parse(res.body);
    expect(error.code).toBe(code);
    if (param) expect(error.param).toBe(param);
    expect((await listAll(key)).ids).toEqual([]);
  });

  it('lists newest first in server-sized pages with a signed cursor, every watch once', async () => {
    // A test key's watches are listed like any other and never refreshed (53 scopes less per pass).
    const { test_key: key } = await pro();
    const made: string[] = [];
    for (let i = 0; i < 53; i++) made.push((await createWatch(key, { type: 'company', domain: newDomain() })).id);
    const { pages, ids } = await listAll(key);
    expect(pages.map((p) => p.length)).toEqual([50, 3]);
    expect(ids).toEqual([...made].reverse());
    const other = await pro();
    const firstPage = WatchListResponseSchema.parse((await api('/v1/watches', { key })).body);
    const stolen = await api(`/v1/watches?cursor=${firstPage.next_cursor}`, { key: other.test_key });
    expect(stolen.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(stolen.body).error).toMatchObject({ code: 'invalid_request', param: 'cursor' });
  });

  it('deletes a watch (204), then 404 for it, for another account and for a malformed id', async () => {
    const { live_key: key } = await pro();
    const kept = await createWatch(key, { type: 'company', domain: newDomain() });
    const gone = await createWatch(key, { type: 'company', domain: newDomain() });
    const del = await api(`/v1/watches/${gone.id}`, { key, method: 'DELETE' });
    expect(del.status).toBe(204);
    expect(del.body).toBeNull();
    expect((await listAll(key)).ids).toEqual([kept.id]);
    expect((await api(`/v1/watches/${gone.id}`, { key, method: 'DELETE' })).status).toBe(404);
    const other = await pro();
    const foreign = await api(`/v1/watches/${kept.id}`, { key: other.live_key, method: 'DELETE' });
    expect(foreign.status).toBe(404);
    expect(ErrorEnvelopeSchema.parse(foreign.body).error.code).toBe('not_found');
    expect((await api('/v1/watches/nope', { key, method: 'DELETE' })).status).toBe(404);
    expect((await listAll(key)).ids).toEqual([kept.id]);
  });
});

describe('refresh passes', () => {
  it('POST /admin/refresh plans a pass and a round of every provider, the same whatever the watches', async () => {
    const { live_key: key } = await pro();
    const domain = newDomain();
    await createWatch(key, { type: 'company', domain });
    await createWatch(key, { type: 'search', filters: { title_or: [uniqueWord()] } });
    const refreshId = await refreshPass();
    const status = (await admin('GET', `/refresh/${refreshId}`)) as { runs: Array<{ id: string; kind: 'pass' | 'round'; provider: string; sweeps: { total: number } }>; sweeps: { total: number; finished: number } };
    const providers = [...PROVIDER_SLUGS];
    const runsOf = (kind: 'pass' | 'round') => status.runs.filter((r) => r.kind === kind);
    // every provider's sequences served it, each run with an id of its own
    expect(runsOf('pass').map((r) => r.provider).sort()).toEqual(providers);
    expect(runsOf('round').map((r) => r.provider).sort()).toEqual(providers);
    expect(new Set(status.runs.map((r) => r.id)).size).toBe(providers.length * 2);
    const sweepsOf = (topic: string, kind: 'pass' | 'round') => {
      const ids = new Set(runsOf(kind).map((r) => r.id));
      return tap.seen.filter((m) => m.topic === topic && ids.has(String(m.value['refresh_id']))).map((m) => m.value);
    };
    // the passes: every partner's new listings and the own crawler's change feed, one sweep each
    const pass = sweepsOf('refresh.pass.fetch.requested', 'pass');
    expect(pass.filter((v) => v['kind'] === 'new_listings').map((v) => v['provider']).sort()).toEqual(providers.slice(1));
    expect(pass.filter((v) => v['provider'] === 'own_index')).toEqual([expect.objectContaining({ kind: 'catalog_changes', scope: { key: 'catalog_changes', filters: {} }, changed_since: expect.any(Number) })]);
    expect(pass).toHaveLength(7);
    // each call of a sweep has a deadline that fits the interval, not the sweep's whole budget
    for (const v of pass) expect(v['call_timeout_ms']).toBeLessThan(v['timeout_ms'] as number);
    // the rounds: batches of stored companies, and the own crawler's whole catalog every REFRESH_BUCKETS rounds
    const round = sweepsOf('refresh.fetch.requested', 'round');
    expect(round.filter((v) => v['provider'] === 'own_index').every((v) => v['kind'] === 'catalog')).toBe(true);
    for (const v of round.filter((x) => x['kind'] !== 'catalog')) {
      expect(v['kind']).toBe('companies');
      expect((v['scope'] as { filters: { company_domain_or: string[] } }).filters.company_domain_or.length).toBeGreaterThan(0);
    }
    // no sweep reads a watch's scope: watches are matched from the changes a pass makes
    const scopes = JSON.stringify([...pass, ...round].map((v) => v['scope']));
    expect(scopes).not.toContain(domain);
    expect(status).toMatchObject({ refresh_id: refreshId, status: 'completed', sweeps: { total: pass.length + round.length, finished: pass.length + round.length } });
  });
});

describe('watch events', () => {
  it('job.opened is charged 1 credit with a ledger line and emitted once; updated, closed and reposted are free', async () => {
    const { live_key: key, account_id: accountId } = await pro(10);
    const domain = newDomain();
    const watch = await createWatch(key, { type: 'company', domain });
    const job = jobAt(domain);

    const opened = await publishChange('opened', job);
    const { event, value } = await eventOf(watch.id, (e) => e.type === 'job.opened');
    expect(value).toMatchObject({ account_id: accountId, webhook_url: webhookUrl });
    expect(event).toMatchObject({ type: 'job.opened', watch_id: watch.id, created_at: opened.occurred_at, data: { job } });
    const ledger = await wholeLedger(key, job.id);
    expect(ledger).toEqual([expect.objectContaining({ job_id: job.id, credits: 1, reason: 'charged', request_id: event.id, operation: `POST /v1/watches/${watch.id}` })]);
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
    expect(closed.event.data).toEqual({ job: { id: job.id, title: job.title, company: job.company, status: 'closed', closed_reason: 'filled' } });

    await publishChange('reposted', { ...job, repost_count: 1 });
    const reposted = await eventOf(watch.id, (e) => e.type === 'job.reposted');
    expect(reposted.event.data).toEqual({ job: { id: job.id, title: job.title, company: job.company, status: 'open', repost_count: 1 } });

    // A second job's opening, ordered behind the redelivered change (same key, then the same
    // account partition to billing): once it is charged, the redelivery has been handled.
    const later = jobAt(domain);
    await publishChange('opened', later, {}, job.id);
    await eventOf(watch.id, (e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id === later.id);
    expect(await wholeLedger(key, job.id)).toHaveLength(1);
    expect(await creditsOf(key)).toBe(8);
    expect(new Set(eventsOf(watch.id).filter((e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id === job.id).map((e) => e.id))).toEqual(new Set([event.id]));
  });

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
    expect(ledger.map((l) => [l.reason, l.credits]).sort()).toEqual([['already_paid', 0], ['charged', 1]]);
    expect(await creditsOf(key)).toBe(9);
  });

  it('a search watch gets the jobs its filters match, at any company, and only its subscribed types', async () => {
    const { live_key: key } = await pro(10);
    const word = uniqueWord();
    const watch = await createWatch(key, { type: 'search', filters: { title_or: [word] }, events: ['job.opened', 'job.closed'] });
    const match = jobAt(newDomain(), { title: `${word} Nurse` });
    const other = jobAt(newDomain());
    await publishChange('opened', other);
    await publishChange('updated', match);
    await publishChange('opened', match);
    const { event } = await eventOf(watch.id, (e) => e.type === 'job.opened');
    expect((event.data as { job: Job }).job.id).toBe(match.id);
    await publishChange('closed', { ...match, status: 'closed', closed_reason: 'expired' });
    await eventOf(watch.id, (e) => e.type === 'job.closed');
    expect(eventsOf(watch.id).map((e) => e.type).sort()).toEqual(['job.closed', 'job.opened']);
  });

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
      held = (await db.query<{ job_id: string }>('SELECT job_id FROM held_watch_events WHERE account_id = $1 ORDER BY seq', [accountId])).rows.map((r) => r.job_id);
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
    const two = await eventOf(watch.id, (e) => e.type === 'job.opened' && (e.data as { job: Job }).job.id !== firstHeld);
    expect((two.event.data as { job: Job }).job.id).toBe(held[1]);
    expect(await creditsOf(key)).toBe(4);
    const ledger = await wholeLedger(key);
    expect(ledger.map((l) => [l.job_id, l.credits, l.reason]).sort()).toEqual([[first.id, 1, 'charged'], [second.id, 1, 'charged']].sort());
    expect((await db.query('SELECT 1 FROM held_watch_events WHERE account_id = $1', [accountId])).rowCount).toBe(0);
  });

  it('job.updated goes only to accounts that paid for the job; a held job.opened still comes after a top-up, carrying the updated job', async () => {
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
      (await db.query<{ description: string | null }>(`SELECT event #>> '{data,job,description}' AS description FROM held_watch_events WHERE account_id = $1`, [holder.account_id])).rows[0];
    const deadline = Date.now() + WAIT_MS;
    while (!(await heldJob()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect(await heldJob()).toBeDefined();

    await publishChange('updated', { ...job, description: 'Updated after it opened' });
    const up = await eventOf(paying.id, (e) => e.type === 'job.updated');
    expect((up.event.data as { job: Job }).job.description).toBe('Updated after it opened');
    // the held job.opened took the updated job instead of a job.updated going out
    const folded = Date.now() + WAIT_MS;
    while ((await heldJob())?.description !== 'Updated after it opened' && Date.now() < folded) await new Promise((r) => setTimeout(r, 200));
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
    await eventOf(paying.id, (e) => e.type === 'job.updated' && (e.data as { job: Job }).job.description === 'Changed again');
    await new Promise((r) => setTimeout(r, 1_000));
    expect(eventsOf(neverPaid.id)).toEqual([]);
  });
});
