// What bench/watches.ts uses beside its run: the simulated market's companies, the benchmark's
// accounts and the events their receivers got, watch creation, the refresh chain's lag.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { Topics, WatchSchema, type Event, type Watch } from '@jobs/contracts';
import { api, type Receiver } from '@jobs/e2e-support';
import type pg from 'pg';
import type { LagProbe } from './kafka-lag.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The checked-out commit, or ? outside a git checkout. */
export function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
  } catch {
    return '?';
  }
}

/** Runs `fn` over `items`, `limit` at a time. */
export async function forEachConcurrently<T>(
  items: readonly T[],
  limit: number,
  fn: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      for (let i = next++; i < items.length; i = next++) await fn(items[i]!, i);
    }),
  );
}

/** The way from a refresh pass or round to a webhook: each topic with the group consuming it. */
const REFRESH_CHAIN: Array<[group: string, topic: string]> = [
  ['provider-fetcher.passes', Topics.RefreshPassFetchRequested.name],
  ['provider-fetcher.boards', Topics.RefreshBoardFetchRequested.name],
  ['dedupe.passes', Topics.RefreshPassRecordsFetched.name],
  ['provider-fetcher.refresh', Topics.RefreshFetchRequested.name],
  ['dedupe.refresh', Topics.RefreshRecordsFetched.name],
  ['search-orchestrator', Topics.JobLifecycleChanged.name],
  ['billing', Topics.EventChargeRequested.name],
  ['webhook-dispatcher', Topics.EventEmitted.name],
];
/** "refresh.fetch.requested 0, refresh.records.fetched 1,234, ...": messages not yet consumed along the chain. */
export async function refreshLag(lagProbe: LagProbe): Promise<string> {
  const lags = await Promise.all(
    REFRESH_CHAIN.map(([group, topic]) => lagProbe.lag(group, topic).catch(() => Number.NaN)),
  );
  return REFRESH_CHAIN.map(([, topic], i) => `${topic} ${lags[i]!.toLocaleString('en')}`).join(', ');
}
/** The company domains of the simulated market (the own crawler's listing) and how many of its openings each has. */
export async function marketDomains(simUrl: string): Promise<Map<string, number>> {
  const openings = new Map<string, number>();
  for (let offset: number | null = 0; offset !== null;) {
    const res = await fetch(`${simUrl}/own_index/v1/jobs?limit=100&offset=${offset}`);
    if (!res.ok) throw new Error(`the simulator's own_index listing answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as {
      data: Array<{ company: { domain: string | null } }>;
      next_offset: number | null;
    };
    for (const job of page.data)
      if (job.company.domain) openings.set(job.company.domain, (openings.get(job.company.domain) ?? 0) + 1);
    offset = page.next_offset;
  }
  return openings;
}

/** The domains of the companies the store holds open jobs at. */
export async function storeDomains(db: pg.Client): Promise<string[]> {
  const { rows } = await db.query<{ domain: string }>(
    `SELECT DISTINCT c.domain FROM canonical_jobs j JOIN companies c ON c.id = j.company_id
      WHERE j.status = 'open' AND c.domain IS NOT NULL`,
  );
  return rows.map((row) => row.domain);
}

/** `count` distinct indexes below `n`, the same for the same seed (mulberry32 + Fisher-Yates). */
export function sampleIndexes(n: number, count: number, seedValue: number): number[] {
  let state = seedValue >>> 0;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const indexes = Array.from({ length: n }, (_, i) => i);
  for (let i = n - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes.slice(0, count);
}

export interface BenchAccount {
  accountId: string;
  liveKey: string;
  receiver: Receiver;
  webhookUrl: string;
}

/** One delivery as the benchmark keeps it. */
export interface Arrived {
  at: number;
  id: string;
  type: Event['type'];
  watchId: string | null;
  /** The unique keyword of a latency round's opening, when a `job.opened` title has one. */
  keyword: string | undefined;
}

/** Every delivery to the accounts' receivers, parsed once. */
export class EventLog {
  readonly arrived: Arrived[] = [];
  private readonly parsed = new Map<Receiver, number>();

  constructor(private readonly receivers: readonly Receiver[]) {}

  /** Parses what arrived since the last call. */
  sync(): void {
    for (const receiver of this.receivers) {
      const from = this.parsed.get(receiver) ?? 0;
      for (const arrival of receiver.arrivals.slice(from)) {
        const event = JSON.parse(arrival.raw) as Event;
        const title = event.type === 'job.opened' ? event.data.job.title.toLowerCase() : '';
        this.arrived.push({
          at: arrival.at,
          id: event.id,
          type: event.type,
          watchId: event.watch_id,
          keyword: /zq[a-z]{10}/.exec(title)?.[0],
        });
      }
      this.parsed.set(receiver, receiver.arrivals.length);
    }
  }

  between(from: number, to: number): Arrived[] {
    this.sync();
    return this.arrived.filter((a) => a.at >= from && a.at < to);
  }
}

/** "job.opened 9,812, job.updated 40" over deliveries (distinct event ids). */
export function byType(arrived: readonly Arrived[]): string {
  const ids = new Map<string, Set<string>>();
  for (const a of arrived) ids.set(a.type, (ids.get(a.type) ?? new Set()).add(a.id));
  const parts = [...ids]
    .sort(([, a], [, b]) => b.size - a.size)
    .map(([type, set]) => `${type} ${set.size.toLocaleString('en')}`);
  return parts.length === 0 ? 'none' : parts.join(', ');
}

export async function createWatch(account: BenchAccount, domain: string): Promise<Watch> {
  const idempotencyKey = randomUUID();
  let last = '';
  for (let attempt = 0; attempt < 3; attempt++) {
    const res = await api('/v1/watches', {
      key: account.liveKey,
      headers: { 'idempotency-key': idempotencyKey },
      body: { type: 'company', domain, webhook_url: account.webhookUrl },
    }).catch((error: unknown) => ({ status: 0, body: { error: String(error) } }));
    if (res.status === 201) return WatchSchema.parse(res.body);
    last = `${res.status} ${JSON.stringify(res.body)}`;
    if (res.status !== 0 && res.status < 500) break;
    await sleep(1000);
  }
  throw new Error(`POST /v1/watches for ${domain} failed: ${last}`);
}
