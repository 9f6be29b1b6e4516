/**
 * The load the fault specs run under: sync searches (each with its own Idempotency-Key, retried
 * with that key on 5xx, network errors and client timeouts, as interface.md tells clients to),
 * async searches (same retry rule) announced by webhook, and a simulated market that keeps
 * opening jobs that the accounts' search watches report (job.opened, charged) after refreshes.
 * It records what every client finally got, for the checks after quiescing.
 *
 * Deliberately light (about two sync searches, a quarter of an async search and half an opening
 * a second): enough to have work in flight in every service at each fault, little enough that a
 * 2-core machine shared with other stacks keeps up. A heavier load left dedupe minutes behind,
 * and the orchestrator's stall sweeper then asked the same chunks again and again, so the async
 * searches could not finish within any reasonable quiescing time.
 */
import { randomUUID } from 'node:crypto';
import { AsyncSearchSchema, JobSearchResponseSchema, PROVIDER_SLUGS, type JobSearchResponse } from '@jobs/contracts';
import { addWorldJob, admin, stack } from '../src/index.js';

export interface LoadAccount {
  accountId: string;
  key: string;
  startCredits: number;
  /** The title word of every opening the load adds: what its searches and its watch look for. */
  word: string;
  /** Where its async searches announce `search.completed`. */
  searchHook: string;
}

export interface SyncSearch {
  account: LoadAccount;
  idempotencyKey: string;
  attempts: number;
  /** The last answer's status (0: no answer); 200 once it succeeded. */
  status: number;
  page?: JobSearchResponse;
}

export interface AsyncCreate {
  account: LoadAccount;
  idempotencyKey: string;
  attempts: number;
  status: number;
  /** Every search id a 202 answer of this key named: one, if Idempotency-Key holds. */
  ids: Set<string>;
}

interface Answer {
  status: number;
  body: unknown;
  retryAfterSeconds?: number;
}

const STRATEGIES = ['max_coverage', 'cheapest_first', 'own_only', 'freshest_first'];
const CLIENT_TIMEOUT_MS = 30_000;
/** Pauses of the loops (see the class comment). */
const SYNC_PAUSE_MS = 1000;
const ASYNC_PAUSE_MS = 4000;
const OPENING_PAUSE_MS = 2000;
const REFRESH_EVERY_MS = 15_000;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One POST with a client deadline; no answer (refused, reset, timed out) is status 0. */
async function post(path: string, key: string, body: unknown, idempotencyKey: string): Promise<Answer> {
  try {
    const res = await fetch(`${stack.baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
        'idempotency-key': idempotencyKey,
      },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(CLIENT_TIMEOUT_MS),
    });
    const text = await res.text();
    const retryAfter = Number(res.headers.get('retry-after'));
    return {
      status: res.status,
      body: text ? (JSON.parse(text) as unknown) : null,
      ...(retryAfter > 0 ? { retryAfterSeconds: retryAfter } : {}),
    };
  } catch {
    return { status: 0, body: null };
  }
}

/**
 * What a careful client retries with the same key: no answer, 5xx, 429 (after Retry-After) and
 * 409 (the same key still being processed: these clients never reuse a key with another body).
 */
const retriable = (status: number) => status === 0 || status >= 500 || status === 429 || status === 409;

export class Load {
  readonly syncSearches: SyncSearch[] = [];
  readonly asyncCreates: AsyncCreate[] = [];
  /** World openings added (each with its account's word), and refresh passes asked for. */
  openingsAdded = 0;
  /** Sync and async requests under way (sent, not answered yet): a fault is best injected while some are. */
  inFlight = 0;
  private running = false;
  /** Retrying stops here (set by stop()): a request still failing then keeps its last status. */
  private retryUntil = Infinity;
  private readonly loops: Promise<void>[] = [];

  constructor(private readonly accounts: LoadAccount[]) {}

  start(): void {
    this.running = true;
    for (const account of this.accounts) this.loops.push(this.syncLoop(account));
    this.loops.push(this.asyncLoop(), this.worldLoop());
  }

  /**
   * Sync searches answered 200 so far: a fault scenario waits for more after its fault, to see the stack serve again.
   */
  get answered(): number {
    return this.syncSearches.filter((s) => s.status === 200).length;
  }

  get asyncAccepted(): number {
    return this.asyncCreates.filter((c) => c.status === 202).length;
  }

  /** Stops making new requests; the ones under way keep retrying for up to `drainMs`. */
  async stop(drainMs: number): Promise<void> {
    this.running = false;
    this.retryUntil = Date.now() + drainMs;
    await Promise.all(this.loops);
  }

  private async syncLoop(account: LoadAccount): Promise<void> {
    while (this.running) {
      const body = {
        filters: { title_or: [account.word] },
        waterfall: { strategy: pick(STRATEGIES), timeout_ms: 5000 },
        limit: 5 + Math.floor(Math.random() * 20),
      };
      const search: SyncSearch = { account, idempotencyKey: `fault-sync-${randomUUID()}`, attempts: 0, status: 0 };
      this.syncSearches.push(search);
      const answer = await this.untilFinal(search, () =>
        post('/v1/jobs/search', account.key, body, search.idempotencyKey),
      );
      if (answer.status === 200) search.page = JobSearchResponseSchema.parse(answer.body);
      await sleep(SYNC_PAUSE_MS);
    }
  }

  private async asyncLoop(): Promise<void> {
    for (let n = 0; this.running; n++) {
      const account = this.accounts[n % this.accounts.length]!;
      const body = {
        filters: { title_or: [account.word] },
        // A small limit bounds each search's chunks (legs stop once it is full); the longer
        // provider deadline keeps slow provider calls on a busy machine from failing every try.
        waterfall: { strategy: 'max_coverage', timeout_ms: 10_000 },
        limit: 25,
        webhook_url: account.searchHook,
      };
      const create: AsyncCreate = {
        account,
        idempotencyKey: `fault-async-${randomUUID()}`,
        attempts: 0,
        status: 0,
        ids: new Set(),
      };
      this.asyncCreates.push(create);
      await this.untilFinal(create, async () => {
        const answer = await post('/v1/searches', account.key, body, create.idempotencyKey);
        if (answer.status === 202) create.ids.add(AsyncSearchSchema.parse(answer.body).id);
        return answer;
      });
      await sleep(ASYNC_PAUSE_MS);
    }
  }

  /** New openings every two seconds or so, a refresh pass every ~15 s so the watches see them. */
  private async worldLoop(): Promise<void> {
    let nextRefresh = Date.now() + REFRESH_EVERY_MS;
    for (let n = 0; this.running; n++) {
      const account = this.accounts[n % this.accounts.length]!;
      const providers = [...new Set([pick(PROVIDER_SLUGS), pick(PROVIDER_SLUGS)])];
      // The admin API answers through the gateway: while it is down this simply tries again later.
      await addWorldJob({ providers, shared_word: account.word }).then(
        () => void this.openingsAdded++,
        () => undefined,
      );
      if (Date.now() >= nextRefresh) {
        await admin('POST', '/refresh', undefined, 202).catch(() => undefined);
        nextRefresh = Date.now() + REFRESH_EVERY_MS;
      }
      await sleep(OPENING_PAUSE_MS);
    }
  }

  private async untilFinal(
    request: { attempts: number; status: number },
    send: () => Promise<Answer>,
  ): Promise<Answer> {
    for (;;) {
      request.attempts++;
      this.inFlight++;
      const answer = await send().finally(() => this.inFlight--);
      request.status = answer.status;
      if (!retriable(answer.status) || Date.now() >= this.retryUntil) return answer;
      await sleep(answer.retryAfterSeconds ? answer.retryAfterSeconds * 1000 : Math.min(250 * request.attempts, 3000));
    }
  }
}
