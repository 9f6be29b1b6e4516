import { JobSearchResponseSchema, Topics } from '@jobs/contracts';
import {
  api,
  createAccount,
  eventually,
  metricsEndpoints,
  Receiver,
  resetProviders,
  scrape,
  setProvider,
  stack,
  sumOf,
  type Exposition,
  type MetricsEndpoint,
} from './stack.js';

/**
 * Every process serves Prometheus metrics (docs/operations.md "Metrics"): after one sync search with a
 * failing provider and one async search whose completion is delivered to a webhook, each
 * stage's counters have moved. Counters are cumulative since each process started, so the
 * assertions are "moved" (> 0) for what this test drove, summed over a service's replicas.
 */
const CONSUMED: Record<string, { group: string; topic: string }> = {
  'search-orchestrator': { group: 'search-orchestrator', topic: Topics.SearchRequested.name },
  'provider-fetcher': { group: 'provider-fetcher', topic: Topics.ProviderFetchRequested.name },
  dedupe: { group: 'dedupe', topic: Topics.ProviderRecordsFetched.name },
  billing: { group: 'billing', topic: Topics.BillingPageChargeRequested.name },
  'webhook-dispatcher': { group: 'webhook-dispatcher', topic: Topics.EventEmitted.name },
};

describe('GET /metrics of every service', () => {
  const receiver = new Receiver();
  const scraped = new Map<string, Exposition[]>();
  const endpoints: MetricsEndpoint[] = metricsEndpoints();
  /** The sum of a metric over every replica of a service. */
  const total = (service: string, name: string, labels: Record<string, string> = {}) =>
    (scraped.get(service) ?? []).reduce((sum, exposition) => sum + sumOf(exposition, name, labels), 0);

  beforeAll(async () => {
    await receiver.start();
    const account = await createAccount({ plan: 'pro', credits: 100 });

    // A sync search with provider_b failing: the fetcher counts its error, billing charges the page.
    await setProvider('provider_b', { fail: 'error' });
    try {
      const res = await api('/v1/jobs/search', {
        key: account.live_key,
        body: {
          filters: { title_or: ['engineer'] },
          waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a', 'provider_b'] },
          limit: 5,
        },
      });
      expect(res.status).toBe(200);
      const page = JobSearchResponseSchema.parse(res.body);
      expect(page.metadata.providers.failed).toEqual([{ provider: 'provider_b', code: 'provider_error' }]);
      expect(page.metadata.credits_charged).toBeGreaterThan(0);
    } finally {
      await resetProviders();
    }

    // An async search whose search.completed event the dispatcher delivers to our receiver.
    const hook = receiver.endpoint();
    const accepted = await api('/v1/searches', {
      key: account.live_key,
      body: { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'own_only' }, limit: 5, webhook_url: hook },
    });
    expect(accepted.status).toBe(202);
    await receiver.waitFor(hook, 1);
    // The dispatcher records the attempt once the receiver's answer is in.
    const dispatchers = endpoints.filter((e) => e.service === 'webhook-dispatcher');
    await eventually(
      async () => {
        const delivered = await Promise.all(
          dispatchers.map(async (e) =>
            sumOf((await scrape(e.url)).exposition, 'webhook_delivery_attempts_total', { outcome: 'delivered' }),
          ),
        );
        return delivered.some((n) => n > 0) ? true : undefined;
      },
      10_000,
      'a delivered attempt in the dispatcher metrics',
    );

    for (const endpoint of endpoints) {
      const result = await scrape(endpoint.url);
      expect({ url: endpoint.url, status: result.status, type: result.contentType }).toEqual({
        url: endpoint.url,
        status: 200,
        type: 'text/plain; version=0.0.4; charset=utf-8',
      });
      scraped.set(endpoint.service, [...(scraped.get(endpoint.service) ?? []), result.exposition]);
    }
  });

  afterAll(async () => {
    await receiver.stop();
  });

  it('is served by all seven processes, and not on the public API port', async () => {
    expect([...scraped.keys()].sort()).toEqual([
      'billing',
      'dedupe',
      'gateway',
      'provider-fetcher',
      'provider-sim',
      'search-orchestrator',
      'webhook-dispatcher',
    ]);
    const publicPort = await fetch(`${stack.baseUrl}/metrics`);
    expect(publicPort.status).toBe(404);
  });

  it.each(Object.entries(CONSUMED))(
    '%s counts the messages it consumed and reports its lag',
    (service, { group, topic }) => {
      expect(total(service, 'kafka_consumer_messages_total', { group, topic, outcome: 'ok' })).toBeGreaterThan(0);
      expect(total(service, 'kafka_consumer_process_seconds_count', { group, topic })).toBeGreaterThan(0);
      const lag = (scraped.get(service) ?? []).flatMap((e) =>
        e.samples.filter((s) => s.name === 'kafka_consumer_lag' && s.labels['group'] === group),
      );
      expect(lag.length).toBeGreaterThan(0);
      for (const sample of lag) expect(sample.value).toBeGreaterThanOrEqual(0);
    },
  );

  it(
    'counts what each stage did: published messages, the failed ' + 'provider, the charge, the search, the delivery',
    () => {
      const requested = total('gateway', 'kafka_producer_messages_total', { topic: Topics.SearchRequested.name });
      expect(requested).toBeGreaterThan(0);
      // and their bytes: a search request's body with its headers is some hundreds of bytes
      expect(total('gateway', 'kafka_producer_bytes_total', { topic: Topics.SearchRequested.name })).toBeGreaterThan(
        requested * 200,
      );
      expect(
        total('gateway', 'kafka_consumer_messages_total', { topic: Topics.SearchPageCharged.name, outcome: 'ok' }),
      ).toBeGreaterThan(0);
      expect(
        total('provider-fetcher', 'provider_calls_total', { provider: 'provider_b', outcome: 'error' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        total('provider-fetcher', 'provider_call_seconds_count', { provider: 'provider_a', outcome: 'ok' }),
      ).toBeGreaterThanOrEqual(1);
      expect(total('billing', 'billing_credits_charged_total', { kind: 'search' })).toBeGreaterThan(0);
      expect(total('billing', 'billing_charges_total', { kind: 'search', outcome: 'charged' })).toBeGreaterThan(0);
      expect(total('search-orchestrator', 'searches_started_total', { strategy: 'max_coverage' })).toBeGreaterThan(0);
      expect(
        total('search-orchestrator', 'searches_answered_total', { strategy: 'max_coverage', outcome: 'partial' }),
      ).toBeGreaterThan(0);
      expect(total('search-orchestrator', 'async_searches_finished_total')).toBeGreaterThan(0);
      expect(
        total('webhook-dispatcher', 'webhook_delivery_attempts_total', { outcome: 'delivered' }),
      ).toBeGreaterThanOrEqual(1);
      expect(
        total('webhook-dispatcher', 'webhook_delivery_seconds_count', { outcome: 'delivered' }),
      ).toBeGreaterThanOrEqual(1);
    },
  );

  it('measures HTTP requests per route: the gateway public API, and the simulator answering the fetcher', () => {
    expect(
      total('gateway', 'http_server_request_duration_count', {
        http_route: '/v1/jobs/search',
        http_request_method: 'POST',
        http_response_status_code: '200',
      }),
    ).toBeGreaterThan(0);
    expect(total('provider-sim', 'http_server_request_duration_count')).toBeGreaterThan(0);
  });
});
