// dedupe's histogram of the own index leg (`own_index_query_seconds`) as bench/own-index.ts reads
// it: scraped from dedupe's /metrics, differences between two scrapes, and the bucket of a percentile.
import { scrape } from '@jobs/e2e-support';

const HISTOGRAM = 'own_index_query_seconds';

export interface Histogram {
  /** upper bound (s, Infinity for +Inf) -> cumulative count */
  buckets: Map<number, number>;
  sum: number;
  count: number;
}

/** The leg's histogram of one `want_band` as dedupe exposes it now. */
export async function legHistogram(metricsUrl: string, wantBand: string): Promise<Histogram> {
  const { status, exposition } = await scrape(metricsUrl);
  if (status !== 200) throw new Error(`${metricsUrl} answered ${status}`);
  const ours = exposition.samples.filter((s) => s.name.startsWith(HISTOGRAM) && s.labels['want_band'] === wantBand);
  const buckets = new Map(
    ours
      .filter((s) => s.name === `${HISTOGRAM}_bucket`)
      .map((s) => [s.labels['le'] === '+Inf' ? Infinity : Number(s.labels['le']), s.value]),
  );
  return {
    buckets,
    sum: ours.find((s) => s.name === `${HISTOGRAM}_sum`)?.value ?? 0,
    count: ours.find((s) => s.name === `${HISTOGRAM}_count`)?.value ?? 0,
  };
}

export function minus(after: Histogram, before: Histogram): Histogram {
  const buckets = new Map([...after.buckets].map(([le, n]) => [le, n - (before.buckets.get(le) ?? 0)]));
  return { buckets, sum: after.sum - before.sum, count: after.count - before.count };
}

const boundMs = (le: number) => (le === Infinity ? '+Inf' : `${+(le * 1000).toFixed(1)} ms`);

/** The bucket holding the p-th percentile of a histogram (difference), e.g. "25-50 ms". */
export function bucketOf(h: Histogram, p: number): string {
  if (h.count <= 0) return 'n/a';
  const rank = Math.max(1, Math.ceil((p / 100) * h.count));
  let lower = 0;
  for (const le of [...h.buckets.keys()].sort((a, b) => a - b)) {
    if ((h.buckets.get(le) ?? 0) >= rank)
      return le === Infinity ? `> ${boundMs(lower)}` : `${+(lower * 1000).toFixed(1)}-${boundMs(le)}`;
    lower = le;
  }
  return 'n/a';
}

/** The histogram (difference) of a subset of exact observations, on the same bucket bounds. */
export function histogramOf(seconds: number[], bounds: number[]): Histogram {
  return {
    buckets: new Map(bounds.map((le) => [le, seconds.filter((s) => s <= le).length])),
    sum: seconds.reduce((a, b) => a + b, 0),
    count: seconds.length,
  };
}
