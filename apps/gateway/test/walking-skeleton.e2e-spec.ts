import { ErrorEnvelopeSchema, JobSearchResponseSchema } from '@jobs/contracts';
import { addWorldJob, api, createAccount, stack, TopicTap } from './stack.js';

/**
 * The walking skeleton: one live search crosses all six services as Kafka messages and comes
 * back in the spec's shape, charged once.
 */
describe('POST /v1/jobs/search through every service', () => {
  const tap = new TopicTap([
    'search.requested',
    'provider.fetch.requested',
    'own-index.query.requested',
    'provider.records.fetched',
    'search.records.deduplicated',
    'search.page.gathered',
    'billing.page.charge.requested',
    'search.page.charged',
  ]);
  let liveKey: string;

  beforeAll(async () => {
    await tap.start();
    liveKey = (await createAccount({ plan: 'pro', credits: 1000 })).live_key;
  });
  afterAll(() => tap.stop());

  it('runs on a stack whose every service is ready', async () => {
    // The gateway's /readyz aggregates every service's own readiness: one stopped service fails it.
    const res = await fetch(`${stack.baseUrl}/readyz`);
    const body = (await res.json()) as { checks: Record<string, boolean> };
    expect(res.status).toBe(200);
    for (const service of [
      'provider-sim',
      'search-orchestrator',
      'provider-fetcher',
      'dedupe',
      'billing',
      'webhook-dispatcher',
    ]) {
      expect(body.checks[service]).toBe(true);
    }
  });

  // a partner: its leg passes every service (the own index's leg is a store query, below)
  const search = { filters: { title_or: ['engineer'] }, waterfall: { providers: ['provider_a'] }, limit: 5 };

  it('answers a live search with canonical jobs, after every stage handled it', async () => {
    const res = await api('/v1/jobs/search', { key: liveKey, body: search });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    expect(requestId).toMatch(/^req_/);

    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.data.length).toBeLessThanOrEqual(5);
    expect(body.metadata.request_id).toBe(requestId);
    expect(body.metadata.providers.tried).toEqual(['provider_a']);
    expect(
      body.data.every((job) => job.id.startsWith('job_') && job.sources.some((s) => s.provider === 'provider_a')),
    ).toBe(true);
    expect(Number(res.headers.get('x-credits-charged'))).toBe(body.metadata.credits_charged);
    expect(body.metadata.credits_charged).toBe(body.data.length);
    expect(Number(res.headers.get('x-credits-remaining'))).toBe(1000 - body.data.length);

    // Each stage published under the same request id, and the answer's two halves carry the whole
    // path: the page from the orchestrator, billing's outcome beside it.
    const charged = await tap.waitFor(
      (m) => m.topic === 'search.page.charged' && m.headers['x-request-id'] === requestId,
    );
    expect(charged.headers['x-stages']).toBe(
      'gateway,search-orchestrator,provider-fetcher,dedupe,search-orchestrator,billing',
    );
    expect(charged.headers['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-0[01]$/);
    expect(charged.value).toMatchObject({
      outcome: 'ok',
      charge: { returned_job_ids: body.data.map((job) => job.id), next_cursor: body.next_cursor },
      credits_charged: body.data.length,
    });
    const page = await tap.waitFor(
      (m) => m.topic === 'search.page.gathered' && m.headers['x-request-id'] === requestId,
    );
    expect(page.headers['x-stages']).toBe('gateway,search-orchestrator,provider-fetcher,dedupe,search-orchestrator');
    for (const topic of [
      'search.requested',
      'provider.fetch.requested',
      'provider.records.fetched',
      'search.records.deduplicated',
      'billing.page.charge.requested',
    ]) {
      const message = await tap.waitFor((m) => m.topic === topic && m.headers['x-request-id'] === requestId);
      expect(message.key).toBeTruthy();
    }
    const traceIds = new Set(
      tap.seen
        .filter((m) => m.headers['x-request-id'] === requestId)
        .map((m) => m.headers['traceparent']?.split('-')[1]),
    );
    expect(traceIds.size).toBe(1);
  });

  it('answers the own index from the store: straight from the orchestrator to dedupe, no fetcher', async () => {
    const res = await api('/v1/jobs/search', {
      key: liveKey,
      body: { filters: { title_or: ['engineer'] }, waterfall: { providers: ['own_index'] }, limit: 5 },
    });
    expect(res.status).toBe(200);
    const requestId = res.headers.get('x-request-id');
    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.data.length).toBeGreaterThan(0);
    expect(body.metadata.providers.tried).toEqual(['own_index']);
    const reply = await tap.waitFor(
      (m) => m.topic === 'search.page.charged' && m.headers['x-request-id'] === requestId,
    );
    expect(reply.headers['x-stages']).toBe('gateway,search-orchestrator,dedupe,search-orchestrator,billing');
    const leg = await tap.waitFor(
      (m) => m.topic === 'own-index.query.requested' && m.headers['x-request-id'] === requestId,
    );
    expect(leg.value).toMatchObject({ want: 5, scope: { providers_routable: expect.arrayContaining(['own_index']) } });
    expect(
      tap.seen.some(
        (m) =>
          ['provider.fetch.requested', 'provider.records.fetched'].includes(m.topic) &&
          m.headers['x-request-id'] === requestId,
      ),
    ).toBe(false);
  });

  it('asks all seven sources on a Pro plan and merges what several of them saw', async () => {
    // an opening of its own, listed by three partners: what other tests add to the market meanwhile
    // cannot push the openings several sources saw off the page
    const opening = await addWorldJob({ providers: ['provider_a', 'provider_b', 'provider_d'] });
    const res = await api('/v1/jobs/search', {
      key: liveKey,
      body: {
        filters: { title_or: [opening.keyword], country_code_or: ['GB'] },
        waterfall: { strategy: 'max_coverage' },
        limit: 50,
      },
    });
    expect(res.status).toBe(200);
    const body = JobSearchResponseSchema.parse(res.body);
    expect(body.metadata.status).toBe('complete');
    expect([...body.metadata.providers.tried].sort()).toEqual([
      'own_index',
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
      'provider_f',
    ]);
    expect(body.metadata.providers.hit.length).toBeGreaterThan(1);
    expect(body.data.every((job) => job.location.country_code === 'GB')).toBe(true);
    const merged = body.data.find((job) => job.title === opening.title);
    expect(merged?.sources.map((source) => source.provider).sort()).toEqual(['provider_a', 'provider_b', 'provider_d']);
    expect(body.metadata.duplicates_merged).toBeGreaterThan(0);
    // one wave: the six partners asked in one request, their records in one message, the own index
    // leg beside them on its own topic; lightly loaded, the last partner still out 20 ms after the others comes apart
    // (FetchWaveUseCase), so at most two messages, the second holding that partner alone
    const requestId = res.headers.get('x-request-id');
    await tap.waitFor((m) => m.topic === 'search.page.charged' && m.headers['x-request-id'] === requestId);
    const ofSearch = (topic: string) =>
      tap.seen.filter((m) => m.topic === topic && m.headers['x-request-id'] === requestId);
    expect(ofSearch('provider.fetch.requested')).toHaveLength(1);
    expect((ofSearch('provider.fetch.requested')[0]!.value as { providers: unknown[] }).providers).toHaveLength(6);
    const partnerLegs = ofSearch('provider.records.fetched').map((m) =>
      (m.value as { batches: { provider: string }[] }).batches.map((b) => b.provider).sort(),
    );
    expect(ofSearch('own-index.query.requested')).toHaveLength(1);
    expect(partnerLegs.flat().sort()).toEqual([
      'provider_a',
      'provider_b',
      'provider_c',
      'provider_d',
      'provider_e',
      'provider_f',
    ]);
    expect(partnerLegs.map((providers) => providers.length).sort()).toEqual(partnerLegs.length === 1 ? [6] : [1, 5]);
    expect(ofSearch('search.records.deduplicated')).toHaveLength(partnerLegs.length + 1);
  });

  it('does not charge twice for the same jobs', async () => {
    const first = await api('/v1/jobs/search', { key: liveKey, body: search });
    const again = await api('/v1/jobs/search', { key: liveKey, body: search });
    expect(again.status).toBe(200);
    const firstBody = JobSearchResponseSchema.parse(first.body);
    const body = JobSearchResponseSchema.parse(again.body);
    expect(body.data.map((j) => j.id)).toEqual(firstBody.data.map((j) => j.id));
    expect(body.metadata.credits_charged).toBe(0);
    expect(body.metadata.jobs_already_paid).toBe(body.data.length);
    expect(again.headers.get('x-credits-charged')).toBe('0');
  });

  it('answers bad input and missing keys with the error envelope', async () => {
    const bad = await api('/v1/jobs/search', { key: liveKey, body: { ...search, limit: 101 } });
    expect(bad.status).toBe(400);
    const envelope = ErrorEnvelopeSchema.parse(bad.body);
    expect(envelope.error.code).toBe('invalid_request');
    expect(envelope.error.param).toBe('limit');
    expect(envelope.error.request_id).toBe(bad.headers.get('x-request-id'));

    const unknown = await api('/v1/jobs/search', { key: liveKey, body: { filters: { titel_or: ['x'] } } });
    expect(unknown.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(unknown.body).error).toMatchObject({
      code: 'unknown_filter',
      param: 'filters.titel_or',
    });

    const anonymous = await api('/v1/jobs/search', { body: search });
    expect(anonymous.status).toBe(401);
    expect(ErrorEnvelopeSchema.parse(anonymous.body).error.code).toBe('unauthorized');
  });
});
