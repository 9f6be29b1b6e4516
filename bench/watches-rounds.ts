// The latency rounds of bench/watches.ts: a new opening at each sampled watched company, one
// refresh call, and the time until each opening's `job.opened` reaches the watching account.
import type { Watch } from '@jobs/contracts';
import { addWorldJob, admin, type ProviderSlug } from '@jobs/e2e-support';
import { forEachConcurrently, type EventLog } from './watches-support.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Providers listing the new openings of the latency rounds, in turn. */
export const PROVIDER_MIXES: ProviderSlug[][] = [
  ['own_index', 'provider_a'],
  ['provider_b'],
  ['own_index'],
  ['provider_c', 'provider_e'],
  ['provider_d'],
  ['provider_a', 'provider_f'],
];

/** A latency round's new opening at a watched company, and when its `job.opened` arrived. */
export interface LatencySample {
  round: number;
  domain: string;
  providers: ProviderSlug[];
  /** Days between its posting and its listing. */
  postedAgoDays: number;
  keyword: string;
  watchId: string;
  refreshAt: number;
  /**
   * ms from the refresh call to the job.opened delivery, also when it came after the timeout (late); undefined if never
   * seen.
   */
  arrivedMs?: number;
}

/** Whether the opening's `job.opened` came within the timeout. */
export const arrivedInTime = (s: LatencySample, eventTimeoutMs: number) =>
  s.arrivedMs !== undefined && s.arrivedMs <= eventTimeoutMs;

export interface LatencyRounds {
  /** The sampled watched companies (S). */
  sampled: ReadonlyArray<{ watch: Watch }>;
  rounds: number;
  eventTimeoutMs: number;
  events: EventLog;
  log: (message: string) => void;
  /** Days before its listing each new opening was posted, in turn. */
  postedAgoDays: readonly number[];
}

/** Runs the rounds one after the other: every opening's sample, matched with what arrived by the last round's end. */
export async function latencyRounds({
  sampled,
  rounds,
  eventTimeoutMs,
  events,
  log,
  postedAgoDays,
}: LatencyRounds): Promise<LatencySample[]> {
  const latencySamples: LatencySample[] = [];
  /** Openings whose job.opened has not arrived yet, any round: keyword -> sample. */
  const awaited = new Map<string, LatencySample>();
  let scanned = 0;
  function matchArrivals(): void {
    events.sync();
    for (const a of events.arrived.slice(scanned)) {
      const sample = a.type === 'job.opened' && a.keyword ? awaited.get(a.keyword) : undefined;
      if (sample && a.watchId === sample.watchId) {
        sample.arrivedMs = a.at - sample.refreshAt;
        awaited.delete(a.keyword!);
      }
    }
    scanned = events.arrived.length;
  }
  const inTime = (s: LatencySample) => arrivedInTime(s, eventTimeoutMs);
  for (let round = 1; round <= rounds; round++) {
    log(
      `round ${round}/${rounds}: a new opening at ${sampled.length} ` +
        `watched companies, POST /admin/refresh, up to ` +
        `${eventTimeoutMs / 1000} s for their job.opened ...`,
    );
    const jobs: Array<Omit<LatencySample, 'round' | 'refreshAt'>> = [];
    await forEachConcurrently(sampled, 4, async ({ watch }, j) => {
      const n = (round - 1) * sampled.length + j;
      const providers = PROVIDER_MIXES[n % PROVIDER_MIXES.length]!;
      const agoDays = postedAgoDays[n % postedAgoDays.length]!;
      const posted_at = new Date(Date.now() - agoDays * 86_400_000).toISOString();
      const job = await addWorldJob({ company_domain: watch.domain!, providers, posted_at });
      jobs[j] = { keyword: job.keyword, domain: watch.domain!, watchId: watch.id, providers, postedAgoDays: agoDays };
    });
    const refreshAt = Date.now();
    const openings: LatencySample[] = jobs.map((job) => ({ round, refreshAt, ...job }));
    for (const opening of openings) awaited.set(opening.keyword, opening);
    latencySamples.push(...openings);
    await admin('POST', '/refresh', undefined, 202);
    while (openings.some((o) => o.arrivedMs === undefined) && Date.now() - refreshAt < eventTimeoutMs) {
      await sleep(200);
      matchArrivals();
    }
    log(`  ${openings.filter(inTime).length}/${openings.length} arrived within ${eventTimeoutMs / 1000} s`);
  }
  matchArrivals();
  return latencySamples;
}
