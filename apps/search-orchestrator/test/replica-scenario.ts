/**
 * The replica scenario: one deterministic pass through every consuming service in a
 * fresh account with words unique in the world. Openings seen by several providers, two sync
 * searches and an async search racing over them, the first search repeated, a saved-search watch
 * and a local webhook receiver, then one opening closed and found closed by a refresh pass.
 *
 * It runs in the one-replica e2e phase (replica-scenario.e2e-spec.ts writes the normalized
 * outcome to .local/run/<instance>/) and again with two replicas of every consumer
 * (replicas.replicas-spec.ts compares with it): random ids differ between runs, so the outcome
 * is structure only (opening -> providers, counts, charges, event types).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import {
  AccountSchema,
  AsyncSearchSchema,
  EventListResponseSchema,
  EventSchema,
  JobSearchResponseSchema,
  PROVIDER_SLUGS,
  WatchSchema,
  type AsyncSearch,
  type Event,
  type JobSearchResponse,
} from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  admin,
  api,
  createAccount,
  eventually,
  Receiver,
  refreshUntil,
  stackRunDir,
  uniqueWord,
  wholeLedger,
  type ProviderSlug,
  type WorldJob,
} from '@jobs/e2e-support';

/** Each opening's providers (every provider of the Pro plan appears, most openings in several) and company. */
export const OPENINGS: readonly { providers: ProviderSlug[]; company: 0 | 1 }[] = [
  { providers: ['own_index', 'provider_a', 'provider_b'], company: 0 },
  { providers: ['provider_a', 'provider_c'], company: 0 },
  { providers: ['provider_b', 'provider_c', 'provider_d'], company: 0 },
  { providers: ['own_index', 'provider_e'], company: 0 },
  { providers: ['provider_d', 'provider_f'], company: 0 },
  { providers: [...PROVIDER_SLUGS], company: 1 },
  { providers: ['provider_e'], company: 1 },
  { providers: ['provider_a', 'provider_f'], company: 1 },
];
/**
 * The opening closed in the world at the end: the crawler shows it closed at the next pass, and
 * its two partners must then leave it out (the pass after re-reads the company of an open job
 * whose crawler listing closed, so the closure comes within two passes, not the ten of a
 * partner-only opening's company bucket).
 */
export const CLOSED = 0;
/** The openings the second sync search asks for by their own title words, racing the first. */
export const SUBSET = [0, 2, 5];
export const CREDITS = 100;
/** The services that consume in a Kafka group, each run as one replica and then two. */
export const CONSUMERS = ['search-orchestrator', 'provider-fetcher', 'dedupe', 'billing', 'webhook-dispatcher'];

const WAIT_MS = 120_000;
// Every provider of the plan, with the longest deadline: a provider dropped under load would
// make the answer partial, which is not what this scenario is about.
const WATERFALL = { strategy: 'max_coverage', timeout_ms: 30_000 };
const sorted = (values: Iterable<string>) => [...values].sort();

/** What one run gives, without its random ids: equal for one replica and for two. */
export interface ScenarioOutcome {
  /** The scenario as defined (providers per opening), so a baseline of another definition never compares. */
  openings: string[][];
  /** Canonical jobs in the store with the scenario's word, and per opening. */
  canonical_jobs: number;
  jobs_by_opening: number[];
  /** Providers of each opening's canonical job(s), from the store. */
  store_sources_by_opening: string[][];
  /** Providers of each opening's job in the first sync search's answer. */
  answer_sources_by_opening: string[][];
  status_by_opening: string[];
  sync: {
    statuses: string[];
    jobs: number;
    subset_jobs: number;
    repeat_same_ids: boolean;
    repeat_credits_charged: number;
    repeat_already_paid: number;
  };
  async: { status: string; jobs_found: number; same_ids_as_sync: boolean };
  credits: { spent: number; ledger_charged: number; charged_lines_by_opening: number[]; lines_by_opening: number[] };
  events: {
    by_type: Record<string, number>;
    job_opened_by_opening: number[];
    job_closed_by_opening: number[];
    /** Requests at the receiver (retries included), and the attempts the dispatcher saw answered. */
    deliveries: number;
    answered_attempts: number;
    deliveries_not_succeeded: number;
    /** Events in the account's feed, and whether they are exactly the delivered ones. */
    feed: number;
    feed_is_delivered: boolean;
  };
}

async function syncSearch(key: string, body: Record<string, unknown>): Promise<JobSearchResponse> {
  const res = await api('/v1/jobs/search', { key, body });
  if (res.status !== 200) throw new Error(`POST /v1/jobs/search answered ${res.status}: ${JSON.stringify(res.body)}`);
  return JobSearchResponseSchema.parse(res.body);
}

async function readSearch(key: string, id: string, query = ''): Promise<AsyncSearch> {
  const res = await api(`/v1/searches/${id}${query}`, { key });
  if (res.status !== 200) throw new Error(`GET /v1/searches/${id} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return AsyncSearchSchema.parse(res.body);
}

/** Starts an async search (202 queued). */
export async function startAsyncSearch(key: string, body: Record<string, unknown>): Promise<AsyncSearch> {
  const res = await api('/v1/searches', { key, body });
  if (res.status !== 202) throw new Error(`POST /v1/searches answered ${res.status}: ${JSON.stringify(res.body)}`);
  return AsyncSearchSchema.parse(res.body);
}

/** Polls an async search until it has finished, then reads every collected job id. */
export async function finishedSearch(
  key: string,
  id: string,
  timeoutMs = WAIT_MS,
): Promise<{ search: AsyncSearch; ids: string[] }> {
  const search = await eventually(
    async () => {
      // the gateway may answer 500 while a killed service restarts: poll on
      const seen = await readSearch(key, id, '?limit=1').catch(() => undefined);
      return seen && ['completed', 'partial', 'failed'].includes(seen.status) ? seen : undefined;
    },
    timeoutMs,
    `async search ${id} to finish`,
    300,
  );
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: AsyncSearch = await readSearch(key, id, `?limit=100${cursor ? `&cursor=${cursor}` : ''}`);
    ids.push(...page.data.map((job) => job.id));
    cursor = page.next_cursor;
  } while (cursor);
  return { search, ids };
}

export async function creditsOf(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  return AccountSchema.parse(res.body).credits_remaining;
}

/** Every event of the account's feed (GET /v1/events, all pages). */
export async function wholeFeed(key: string): Promise<Event[]> {
  const events: Event[] = [];
  let since: string | null = null;
  for (;;) {
    const res = await api(`/v1/events?limit=100${since ? `&since=${since}` : ''}`, { key });
    if (res.status !== 200) throw new Error(`GET /v1/events answered ${res.status}: ${JSON.stringify(res.body)}`);
    const page = EventListResponseSchema.parse(res.body);
    if (page.data.length === 0) return events;
    events.push(...page.data);
    since = page.next_cursor;
    if (!since) return events;
  }
}

/** The events that reached the receiver at `url`, one entry per delivery (duplicates kept). */
export function deliveredEvents(receiver: Receiver, url: string): Event[] {
  return receiver.at(url).map((arrival) => EventSchema.parse(JSON.parse(arrival.raw)));
}

/**
 * Waits until every delivery of the account is finished and returns what the dispatcher
 * recorded: a delivery still pending could reach the receiver later, a finished one cannot.
 */
export async function settledDeliveries(
  db: pg.Client,
  accountId: string,
  timeoutMs = WAIT_MS,
): Promise<{ deliveries: number; answered: number; unsucceeded: number }> {
  return eventually(
    async () => {
      const { rows } = await db.query<{ deliveries: number; pending: number; unsucceeded: number; answered: number }>(
        `SELECT count(*)::int AS deliveries,
                count(*) FILTER (WHERE d.status = 'pending')::int AS pending,
                count(*) FILTER (WHERE d.status <> 'succeeded')::int AS unsucceeded,
                coalesce(sum((SELECT count(*) FROM webhook_attempts a
                               WHERE a.delivery_id = d.id AND a.status_code IS NOT NULL)), 0)::int AS answered
           FROM webhook_deliveries d WHERE d.account_id = $1`,
        [accountId],
      );
      const row = rows[0]!;
      return row.pending === 0
        ? { deliveries: row.deliveries, answered: row.answered, unsucceeded: row.unsucceeded }
        : undefined;
    },
    timeoutMs,
    `the deliveries of ${accountId} to finish`,
    200,
  );
}

/** The store's canonical jobs whose title has `word`, with their providers, company and status. */
export async function storedJobs(
  db: pg.Client,
  words: string[],
): Promise<{ id: string; title: string; status: string; providers: string[] }[]> {
  const { rows } = await db.query<{ id: string; title: string; status: string; providers: string[] }>(
    `SELECT j.id, j.title, j.status::text AS status,
            array(SELECT s.provider::text FROM job_sources s WHERE s.canonical_job_id = j.id ORDER BY 1) AS providers
       FROM canonical_jobs j WHERE j.title_search LIKE ANY($1::text[])`,
    [words.map((word) => `% ${word}%`)],
  );
  return rows;
}

export async function runScenario(): Promise<ScenarioOutcome> {
  const receiver = new Receiver();
  await receiver.start();
  const db = new pg.Client({ connectionString: process.env['DATABASE_URL'] });
  await db.connect();
  let watchId: string | undefined;
  let key = '';
  try {
    const hook = receiver.endpoint();
    const account = await createAccount({ plan: 'pro', credits: CREDITS });
    key = account.live_key;
    const word = uniqueWord();
    const companies = [await addWorldCompany(), await addWorldCompany()];
    // The watch exists before any of its jobs: each one's creation is a job.opened for it.
    const created = await api('/v1/watches', {
      key,
      body: { type: 'search', filters: { title_or: [word] }, events: ['job.opened', 'job.closed'], webhook_url: hook },
    });
    if (created.status !== 201)
      throw new Error(`POST /v1/watches answered ${created.status}: ${JSON.stringify(created.body)}`);
    watchId = WatchSchema.parse(created.body).id;
    const openings: WorldJob[] = [];
    for (const opening of OPENINGS)
      openings.push(
        await addWorldJob({
          providers: opening.providers,
          shared_word: word,
          company_domain: companies[opening.company],
        }),
      );
    const openingOf = (title: string) => openings.findIndex((opening) => title.toLowerCase().includes(opening.keyword));
    const perOpening = <T>(of: (index: number) => T) => openings.map((_, index) => of(index));

    // Three searches at once over the same openings: their batches meet in dedupe and billing.
    const everything = { filters: { title_or: [word] }, waterfall: WATERFALL, limit: 25 };
    const [first, subset, accepted] = await Promise.all([
      syncSearch(key, everything),
      syncSearch(key, {
        filters: { title_or: SUBSET.map((i) => openings[i]!.keyword) },
        waterfall: WATERFALL,
        limit: 25,
      }),
      startAsyncSearch(key, { filters: { title_or: [word] }, waterfall: WATERFALL, limit: 100, webhook_url: hook }),
    ]);
    const repeat = await syncSearch(key, everything);
    const collected = await finishedSearch(key, accepted.id);

    await admin('POST', `/world/jobs/${openings[CLOSED]!.worldJobId}/close`, { reason: 'filled' });
    await refreshUntil(
      () => (deliveredEvents(receiver, hook).some((event) => event.type === 'job.closed') ? true : undefined),
      'job.closed at the receiver',
      WAIT_MS,
    );
    // job.opened x openings, search.completed, job.closed: distinct ids, however many deliveries
    await eventually(
      () =>
        new Set(deliveredEvents(receiver, hook).map((event) => event.id)).size >= OPENINGS.length + 2
          ? true
          : undefined,
      WAIT_MS,
      'every event at the receiver',
    );
    const settled = await settledDeliveries(db, account.account_id);

    const delivered = deliveredEvents(receiver, hook);
    const distinct = [...new Map(delivered.map((event) => [event.id, event])).values()];
    const jobOfEvent = (event: Event) => ('job' in event.data ? (event.data.job as { id: string }).id : undefined);
    const stored = await storedJobs(db, [word]);
    const titleOfJob = new Map(stored.map((job) => [job.id, job.title]));
    const openingOfJob = (id: string | undefined) => (id === undefined ? -1 : openingOf(titleOfJob.get(id) ?? ''));
    const ledger = await wholeLedger(key);
    const spent = CREDITS - (await creditsOf(key));
    const feed = await wholeFeed(key);
    const byType: Record<string, number> = {};
    for (const event of distinct) byType[event.type] = (byType[event.type] ?? 0) + 1;
    const firstIds = first.data.map((job) => job.id);

    return {
      openings: OPENINGS.map((opening) => sorted(opening.providers)),
      canonical_jobs: stored.length,
      jobs_by_opening: perOpening((i) => stored.filter((job) => openingOf(job.title) === i).length),
      store_sources_by_opening: perOpening((i) =>
        sorted(new Set(stored.filter((job) => openingOf(job.title) === i).flatMap((job) => job.providers))),
      ),
      answer_sources_by_opening: perOpening((i) =>
        sorted(
          new Set(
            first.data.filter((job) => openingOf(job.title) === i).flatMap((job) => job.sources.map((s) => s.provider)),
          ),
        ),
      ),
      status_by_opening: perOpening((i) =>
        stored
          .filter((job) => openingOf(job.title) === i)
          .map((job) => job.status)
          .join(','),
      ),
      sync: {
        statuses: [first, subset, repeat].map((page) => page.metadata.status),
        jobs: first.data.length,
        subset_jobs: subset.data.length,
        repeat_same_ids: JSON.stringify(sorted(repeat.data.map((job) => job.id))) === JSON.stringify(sorted(firstIds)),
        repeat_credits_charged: repeat.metadata.credits_charged,
        repeat_already_paid: repeat.metadata.jobs_already_paid,
      },
      async: {
        status: collected.search.status,
        jobs_found: collected.search.jobs_found,
        same_ids_as_sync: JSON.stringify(sorted(collected.ids)) === JSON.stringify(sorted(firstIds)),
      },
      credits: {
        spent,
        ledger_charged: ledger.reduce((sum, line) => sum + line.credits, 0),
        charged_lines_by_opening: perOpening(
          (i) =>
            ledger.filter((line) => line.reason === 'charged' && openingOfJob(line.job_id ?? undefined) === i).length,
        ),
        lines_by_opening: perOpening(
          (i) => ledger.filter((line) => openingOfJob(line.job_id ?? undefined) === i).length,
        ),
      },
      events: {
        by_type: byType,
        job_opened_by_opening: perOpening(
          (i) =>
            distinct.filter((event) => event.type === 'job.opened' && openingOfJob(jobOfEvent(event)) === i).length,
        ),
        job_closed_by_opening: perOpening(
          (i) =>
            distinct.filter((event) => event.type === 'job.closed' && openingOfJob(jobOfEvent(event)) === i).length,
        ),
        deliveries: delivered.length,
        answered_attempts: settled.answered,
        deliveries_not_succeeded: settled.unsucceeded,
        feed: feed.length,
        feed_is_delivered:
          JSON.stringify(sorted(feed.map((event) => event.id))) ===
          JSON.stringify(sorted(distinct.map((event) => event.id))),
      },
    };
  } finally {
    // a live watch would be read by every later refresh pass
    if (watchId) await api(`/v1/watches/${watchId}`, { key, method: 'DELETE' });
    await db.end();
    await receiver.stop();
  }
}

/** The exact expectations one replica meets, checked on every run (also without a baseline). */
export function expectExact(outcome: ScenarioOutcome): void {
  const n = OPENINGS.length;
  const each = (value: number) => Array.from({ length: n }, () => value);
  const definition = OPENINGS.map((opening) => sorted(opening.providers));
  // one canonical job per opening, listing exactly the providers that saw it, in the store and the answer
  expect(outcome.canonical_jobs).toBe(n);
  expect(outcome.jobs_by_opening).toEqual(each(1));
  expect(outcome.store_sources_by_opening).toEqual(definition);
  expect(outcome.answer_sources_by_opening).toEqual(definition);
  expect(outcome.status_by_opening).toEqual(definition.map((_, i) => (i === CLOSED ? 'closed' : 'open')));
  // the same search again: the same ids, free
  expect(outcome.sync).toEqual({
    statuses: ['complete', 'complete', 'complete'],
    jobs: n,
    subset_jobs: SUBSET.length,
    repeat_same_ids: true,
    repeat_credits_charged: 0,
    repeat_already_paid: n,
  });
  expect(outcome.async).toEqual({ status: 'completed', jobs_found: n, same_ids_as_sync: true });
  // credits: balance == ledger == distinct jobs, each job charged once whoever got there first
  expect(outcome.credits.spent).toBe(n);
  expect(outcome.credits.ledger_charged).toBe(n);
  expect(outcome.credits.charged_lines_by_opening).toEqual(each(1));
  // events: each exactly once after the receiver's dedupe by id; deliveries as the dispatcher recorded them
  expect(outcome.events.by_type).toEqual({ 'job.opened': n, 'job.closed': 1, 'search.completed': 1 });
  expect(outcome.events.job_opened_by_opening).toEqual(each(1));
  expect(outcome.events.job_closed_by_opening).toEqual(definition.map((_, i) => (i === CLOSED ? 1 : 0)));
  expect(outcome.events).toMatchObject({
    deliveries: n + 2,
    answered_attempts: n + 2,
    deliveries_not_succeeded: 0,
    feed: n + 2,
    feed_is_delivered: true,
  });
}

/** Where the one-replica run leaves its outcome for the two-replica run of the same `npm test`. */
export function baselineFile(): string {
  return join(stackRunDir(), 'replica-scenario.json');
}

export function writeBaseline(outcome: ScenarioOutcome): void {
  writeFileSync(baselineFile(), `${JSON.stringify(outcome, null, 2)}\n`);
}

export function readBaseline(): ScenarioOutcome | undefined {
  return existsSync(baselineFile()) ? (JSON.parse(readFileSync(baselineFile(), 'utf8')) as ScenarioOutcome) : undefined;
}
