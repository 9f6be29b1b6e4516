/**
 * Fills a running stack's store with the whole simulated market, the way a refresh pass feeds
 * it: every provider's full listing is read over the simulator's HTTP API by the real adapters
 * of @jobs/provider-adapters (their own paging and mappers, as the provider-fetcher reads a
 * sweep: one call of `want` 200 records with a resumable position per part), and each part is
 * published to Kafka as a `refresh.records.fetched` message (or `refresh.pass.records.fetched`
 * with `topic: 'passes'`, merged two at a time) (`kind: new_listings`, one
 * `rfr_bench_...` refresh id, `final` on the last part of each provider, never `complete`, key
 * from the topic's `keyOf`, validated by its zod schema), which dedupe merges into canonical jobs
 * through its normal path. Then it waits until dedupe has caught up: the store's job and source
 * counts still for `settleMs` and dedupe's consumer lag on the topic (its `kafka_consumer_lag`
 * gauge) at 0.
 */
import { Kafka, logLevel } from 'kafkajs';
import type pg from 'pg';
import { Topics, type ProviderSlug } from '@jobs/contracts';
import { scrape } from '@jobs/e2e-support';
import { createProviderAdapters, type PagePosition, type ResumablePaging } from '@jobs/provider-adapters';

/** Records per part, as the fetcher's sweeps (`SWEEP_PART_RECORDS`). */
const PART_RECORDS = 200;

export interface StoreCounts {
  openJobs: number;
  allJobs: number;
  sources: number;
  sourcesByProvider: Record<string, number>;
}

/** How many canonical jobs (open, all) and sources the store holds. */
export async function storeCounts(db: pg.Client): Promise<StoreCounts> {
  const jobs = await db.query<{ open: string; all: string }>(
    `SELECT count(*) FILTER (WHERE status = 'open') AS open, count(*) AS all FROM canonical_jobs`,
  );
  const sources = await db.query<{ provider: string; n: string }>(
    `SELECT provider::text AS provider, count(*) AS n FROM job_sources GROUP BY provider ORDER BY provider`,
  );
  const sourcesByProvider = Object.fromEntries(sources.rows.map((r) => [r.provider, Number(r.n)]));
  return {
    openJobs: Number(jobs.rows[0]!.open),
    allJobs: Number(jobs.rows[0]!.all),
    sources: Object.values(sourcesByProvider).reduce((a, b) => a + b, 0),
    sourcesByProvider,
  };
}

export interface FillOptions {
  simUrl: string;
  brokers: string[];
  db: pg.Client;
  /** dedupe's GET /metrics (its health port) */
  dedupeMetricsUrl: string;
  /** the counts must stay still this long */
  settleMs: number;
  timeoutMs: number;
  log: (line: string) => void;
  /**
   * `rounds` (default): `refresh.records.fetched`, merged one part at a time; `passes`:
   * `refresh.pass.records.fetched`, keyed by provider, two parts at a time (a bigger store fills sooner)
   */
  topic?: 'rounds' | 'passes';
  /** pages asked side by side where the provider addresses its pages (default 1) */
  parallelPages?: number;
  /** read only these providers' listings (default every provider): a smaller store */
  providers?: readonly ProviderSlug[];
}

export interface FillResult {
  refreshId: string;
  parts: number;
  records: Record<ProviderSlug, number>;
  readSeconds: number;
  caughtUpSeconds: number;
}

export async function fillStore(options: FillOptions): Promise<FillResult> {
  const { log } = options;
  const refreshId = `rfr_bench_${Date.now().toString(36)}`;
  const topic = options.topic === 'passes' ? Topics.RefreshPassRecordsFetched : Topics.RefreshRecordsFetched;
  const producer = new Kafka({
    clientId: 'bench-own-index',
    brokers: options.brokers,
    logLevel: logLevel.NOTHING,
  }).producer();
  await producer.connect();
  const started = performance.now();
  const records = {} as Record<ProviderSlug, number>;
  let parts = 0;
  try {
    await Promise.all(
      createProviderAdapters(options.simUrl)
        .filter((adapter) => !options.providers || options.providers.includes(adapter.provider))
        .map(async (adapter) => {
          const provider = adapter.provider;
          const startedAt = new Date().toISOString();
          records[provider] = 0;
          let position: PagePosition | null = null;
          for (let part = 0; ; part++) {
            const callStarted = Date.now();
            const paging: ResumablePaging = { start: position };
            const read = await adapter.search({
              filters: {},
              want: PART_RECORDS,
              paging,
              signal: AbortSignal.timeout(120_000),
              parallelPages: options.parallelPages ?? 1,
            });
            position = paging.next ?? null;
            const final = position === null;
            const value = topic.value.parse({
              v: 1,
              refresh_id: refreshId,
              kind: 'new_listings',
              scope: { key: `bench:${provider}`, filters: {} },
              provider,
              part,
              final,
              outcome: 'ok',
              complete: false,
              started_at: startedAt,
              latency_ms: Date.now() - callStarted,
              fetched_at: new Date().toISOString(),
              records: read,
            });
            await producer.send({
              topic: topic.name,
              messages: [{ key: topic.keyOf(value), value: JSON.stringify(value) }],
            });
            records[provider] += read.length;
            parts += 1;
            if (final) break;
          }
          log(
            `${provider}: ${records[provider]} records read and published ` +
              `(${((performance.now() - started) / 1000).toFixed(0)} s)`,
          );
        }),
    );
  } finally {
    await producer.disconnect();
  }
  const readSeconds = (performance.now() - started) / 1000;
  const total = Object.values(records).reduce((a, b) => a + b, 0);
  log(
    `${total} records in ${parts} parts published under ` +
      `${refreshId} in ${readSeconds.toFixed(0)} s; waiting for ` +
      `dedupe ...`,
  );
  await caughtUp(options, topic.name, options.topic === 'passes' ? 'dedupe.passes' : 'dedupe.refresh');
  return { refreshId, parts, records, readSeconds, caughtUpSeconds: (performance.now() - started) / 1000 };
}

/** dedupe's lag on the fill's topic (its own gauge, per partition it holds); null when it reports none. */
async function refreshLag(metricsUrl: string, topic: string, group: string): Promise<number | null> {
  const { status, exposition } = await scrape(metricsUrl);
  if (status !== 200) return null;
  const lags = exposition.samples.filter(
    (s) => s.name === 'kafka_consumer_lag' && s.labels['topic'] === topic && s.labels['group'] === group,
  );
  return lags.length === 0 ? null : lags.reduce((sum, s) => sum + s.value, 0);
}

async function caughtUp(
  { db, dedupeMetricsUrl, settleMs, timeoutMs, log }: FillOptions,
  topic: string,
  group: string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let stillSince = Date.now();
  let reported = 0;
  while (Date.now() < deadline) {
    const counts = await storeCounts(db);
    const lag = await refreshLag(dedupeMetricsUrl, topic, group).catch(() => null);
    const now = `${counts.allJobs}/${counts.sources}`;
    if (now !== last) {
      last = now;
      stillSince = Date.now();
    }
    if (Date.now() - reported > 30_000) {
      reported = Date.now();
      log(
        `store: ${counts.openJobs} open jobs (${counts.allJobs} in ` +
          `all), ${counts.sources} sources; dedupe lag on ${topic}: ` +
          `${lag ?? 'n/a'}`,
      );
    }
    if (Date.now() - stillSince >= settleMs && (lag === null || lag === 0)) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`dedupe did not catch up within ${timeoutMs / 1000} s`);
}
