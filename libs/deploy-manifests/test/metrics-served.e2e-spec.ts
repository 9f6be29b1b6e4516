import {
  api,
  createAccount,
  eventually,
  metricsEndpoints,
  Receiver,
  resetProviders,
  scrape,
  setProvider,
  sumOf,
} from '@jobs/e2e-support';
import { allExpressions, PROMETHEUS_SERIES, recordedNames } from '../src/monitoring.js';
import { parsePromQL } from '../src/promql.js';

/**
 * Every metric an alert rule or a dashboard names is served by some process of the running stack
 * (its GET /metrics), so no alert watches a series that does not exist. A metric is exposed once
 * something was measured, so the stack first does what each family counts: a sync search with a
 * failing provider (repeated: already-paid jobs), an async search delivered to a webhook, and a
 * burst of tight-deadline searches that admission refuses in part. Names recording rules define
 * are Prometheus' own, and so are `up` and `ALERTS`.
 */
const expressions = allExpressions();
const recorded = new Set(recordedNames());
const receiver = new Receiver();
const served = new Map<string, Set<string>>();

/** Every sample name each process serves now (a histogram's _bucket, _sum and _count included). */
async function scrapeAll(): Promise<Map<string, Set<string>>> {
  const names = new Map<string, Set<string>>();
  for (const endpoint of metricsEndpoints()) {
    const result = await scrape(endpoint.url);
    expect({ url: endpoint.url, status: result.status }).toEqual({ url: endpoint.url, status: 200 });
    names.set(endpoint.id, new Set(result.exposition.samples.map((sample) => sample.name)));
  }
  return names;
}

const refusedSoFar = async () => {
  let refused = 0;
  for (const gateway of metricsEndpoints().filter((e) => e.service === 'gateway'))
    refused += sumOf((await scrape(gateway.url)).exposition, 'gateway_admission_refused_total');
  return refused;
};

beforeAll(async () => {
  await receiver.start();
  const account = await createAccount({ plan: 'pro', credits: 10_000 });
  const key = account.live_key;
  const body = {
    filters: { title_or: ['engineer'] },
    waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a', 'provider_b'] },
    limit: 5,
  };
  await setProvider('provider_b', { fail: 'error' });
  try {
    for (let i = 0; i < 2; i++) expect((await api('/v1/jobs/search', { key, body })).status).toBe(200);
  } finally {
    await resetProviders();
  }

  const hook = receiver.endpoint();
  const accepted = await api('/v1/searches', {
    key,
    body: { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'own_only' }, limit: 5, webhook_url: hook },
  });
  expect(accepted.status).toBe(202);
  await receiver.waitFor(hook, 1);

  // Admission refuses what cannot start within a 1 s deadline; a fast machine may answer a
  // whole burst, so bursts repeat (at most three) until one refusal is counted.
  for (let burst = 0; burst < 3 && (await refusedSoFar()) === 0; burst++) {
    const answers = await Promise.all(
      Array.from({ length: 64 }, () =>
        api('/v1/jobs/search', {
          key,
          body: { filters: { title_or: ['engineer'] }, waterfall: { timeout_ms: 1000 }, limit: 3 },
        }),
      ),
    );
    expect(answers.every((answer) => answer.status === 200 || answer.status === 503)).toBe(true);
  }
  expect(await refusedSoFar()).toBeGreaterThan(0);

  // The dispatcher records its attempt once the receiver's answer is in.
  await eventually(
    async () => {
      const names = await scrapeAll();
      return [...names.values()].some(
        (set) => set.has('webhook_delivery_lag_seconds_count') && set.has('webhook_delivery_attempts_total'),
      )
        ? true
        : undefined;
    },
    15_000,
    'the delivery in the dispatcher metrics',
  );
  for (const [id, names] of await scrapeAll()) served.set(id, names);
}, 600_000);

afterAll(async () => {
  await receiver.stop();
});

describe('the metrics of the alert rules and dashboards', () => {
  it('are scraped from every process of the stack', () => {
    expect([...new Set([...served.keys()].map((id) => id.split('#')[0]))].sort()).toEqual([
      'billing',
      'dedupe',
      'gateway',
      'provider-fetcher',
      'provider-sim',
      'search-orchestrator',
      'webhook-dispatcher',
    ]);
  });

  it.each(expressions.map((e) => [e.where, e.expr] as const))(
    '%s names only metrics a process serves',
    (_where, expr) => {
      const { errors, metrics } = parsePromQL(expr);
      expect(errors).toEqual([]);
      const missing = metrics.filter(
        (name) =>
          !recorded.has(name) &&
          !PROMETHEUS_SERIES.includes(name) &&
          ![...served.values()].some((names) => names.has(name)),
      );
      expect(missing).toEqual([]);
    },
  );
});
