import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { JobSearchResponseSchema } from '@jobs/contracts';
import {
  addWorldCompany,
  addWorldJob,
  ancestry,
  api,
  createAccount,
  OtlpReceiver,
  rootsOf,
  servicesAlong,
  stack,
  uniqueWord,
  type ReceivedSpan,
} from '@jobs/e2e-support';

/**
 * One search is one trace: the test stack exports spans (OTLP/HTTP JSON) to a receiver running in
 * this process, and samples only the traces a caller asks for with a sampled `traceparent`, as
 * this test does. The public API starts that trace itself and links the caller's span. The search finds a new opening
 * of a watched company, so the trace continues past
 * the answer through the opening's lifecycle change, the watch's charged event and its storage for
 * delivery: every one of the six services, each stage a child of the message that started it.
 */
const receiverPort = Number(process.env['OTLP_RECEIVER_PORT']);
const WAIT_MS = 30_000;
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

const receiver = new OtlpReceiver();
// The watch's webhook endpoint: delivery is not under test here, only that the event reached the dispatcher.
const hooks = createServer((_req, res) => res.writeHead(200).end());
let hookUrl: string;

beforeAll(async () => {
  if (!Number.isInteger(receiverPort) || receiverPort <= 0)
    throw new Error('OTLP_RECEIVER_PORT is not set: run through npm test / the stack e2e mode');
  await receiver.listen(receiverPort);
  await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
  hookUrl = `http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hooks`;
});
afterAll(async () => {
  await receiver.close();
  await new Promise((resolve) => hooks.close(resolve));
});

async function spansUntil(traceId: string, done: (spans: ReceivedSpan[]) => boolean): Promise<ReceivedSpan[]> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const spans = receiver.trace(traceId);
    if (done(spans)) return spans;
    await new Promise((r) => setTimeout(r, 250));
  }
  const seen = receiver.trace(traceId).map((s) => `${s.service}: ${s.name}`);
  throw new Error(
    `trace ${traceId} incomplete after ${WAIT_MS} ms; received ${seen.length} spans:\n${seen.join('\n')}`,
  );
}

/** The trace the gateway started for a request that sent the caller's trace id in its traceparent. */
async function linkedTrace(callerTraceId: string): Promise<string> {
  const deadline = Date.now() + WAIT_MS;
  while (Date.now() < deadline) {
    const linked = receiver.linkedFrom(callerTraceId);
    if (linked.length > 0) {
      expect(linked).toHaveLength(1);
      return linked[0]!;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no span links the caller's trace ${callerTraceId} after ${WAIT_MS} ms`);
}

const consumerOf = (topic: string, service: string) => (s: ReceivedSpan) =>
  s.kind === CONSUMER && s.service === service && s.name === `${topic} process`;
/** The messages a span stands for: a folded process or publish span says how many. */
const handled = (spans: ReceivedSpan[]) =>
  spans.reduce((sum, s) => sum + Number(s.attributes['messaging.batch.message_count'] ?? 1), 0);
const published = (spans: ReceivedSpan[], topic: string, service: string) =>
  handled(spans.filter((s) => s.kind === PRODUCER && s.service === service && s.name === `${topic} publish`));
/**
 * The dispatcher's span that stored billing's charged events: the child of billing's publish, or
 * (the dispatcher folds the trace's events, the free company.hiring_started among them) linking it.
 */
function chargedEventsStored(spans: ReceivedSpan[]): ReceivedSpan | undefined {
  const charged = spans.find(
    (s) => s.kind === PRODUCER && s.service === 'billing' && s.name === 'event.emitted publish',
  );
  if (!charged) return undefined;
  return spans.find(
    (s) =>
      consumerOf('event.emitted', 'webhook-dispatcher')(s) &&
      (s.parentSpanId === charged.spanId || s.links.some((l) => l.spanId === charged.spanId)),
  );
}
/** Every event the trace's stages emitted reached the dispatcher's spans. */
const eventsStored = (all: ReceivedSpan[]) =>
  published(all, 'event.emitted', 'billing') > 0 &&
  handled(all.filter(consumerOf('event.emitted', 'webhook-dispatcher'))) >=
    published(all, 'event.emitted', 'billing') + published(all, 'event.emitted', 'search-orchestrator');

describe('tracing: one search, one trace across every service', () => {
  it(
    'links the gateway, the waterfall, every provider call, ' +
      'dedupe, billing and the event dispatcher parent to child, ' +
      'with stage attributes',
    async () => {
      const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
      const domain = await addWorldCompany();
      expect((await api('/v1/watches', { key, body: { type: 'company', domain, webhook_url: hookUrl } })).status).toBe(
        201,
      );
      // Listed by provider_a alone and posted ten days ago: no refresh pass brings it into the store
      // (its new-listings window is minutes long, and the store does not know the company), so the
      // search's own merge opens it and its job.opened belongs to this trace.
      const opening = await addWorldJob({
        providers: ['provider_a'],
        company_domain: domain,
        posted_at: new Date(Date.now() - 10 * 86_400_000).toISOString(),
      });

      const callerTraceId = randomBytes(16).toString('hex');
      const callerSpanId = randomBytes(8).toString('hex');
      const res = await api('/v1/jobs/search', {
        key,
        headers: { traceparent: `00-${callerTraceId}-${callerSpanId}-01`, baggage: 'account=acc_someone_else' },
        body: {
          filters: { title_or: [opening.keyword] },
          waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
          limit: 10,
        },
      });
      expect(res.status).toBe(200);
      // The public API starts a trace of its own and links the caller's span; nothing joins the caller's trace.
      const traceId = await linkedTrace(callerTraceId);
      expect(traceId).not.toBe(callerTraceId);
      const page = JobSearchResponseSchema.parse(res.body);
      expect(page.data).toHaveLength(1);
      // One credit for the new job: the search's page or the watch's job.opened, whichever billing
      // handles first (both are in this trace; the other finds it already paid).
      expect(page.metadata.credits_charged + page.metadata.jobs_already_paid).toBe(1);

      const spans = await spansUntil(
        traceId,
        // Parents end, and so are exported, after their children: wait for the tree to close.
        (all) =>
          rootsOf(all).length === 1 &&
          eventsStored(all) &&
          all.some(consumerOf('search.page.charged', 'gateway')) &&
          all.some(consumerOf('search.page.gathered', 'gateway')) &&
          all.some((s) => s.service === 'provider-sim'),
      );

      // One tree: a single root, the gateway's server span, which links the caller's span instead of
      // being its child; every other span's parent was received too.
      const roots = rootsOf(spans);
      expect(roots).toHaveLength(1);
      const root = roots[0]!;
      expect(root).toMatchObject({
        service: 'gateway',
        kind: SERVER,
        parentSpanId: null,
        links: [{ traceId: callerTraceId, spanId: callerSpanId }],
      });
      expect(receiver.trace(callerTraceId)).toEqual([]);
      expect(new Set(spans.map((s) => s.service))).toEqual(
        new Set([
          'gateway',
          'search-orchestrator',
          'provider-fetcher',
          'provider-sim',
          'dedupe',
          'billing',
          'webhook-dispatcher',
        ]),
      );

      // Every consumer span is the child of the producer span of the message it handles.
      const byId = new Map(spans.map((s) => [s.spanId, s]));
      for (const consumer of spans.filter((s) => s.kind === CONSUMER)) {
        const parent = byId.get(consumer.parentSpanId!)!;
        expect({ consumer: consumer.name, parent: parent.name, kind: parent.kind }).toEqual({
          consumer: consumer.name,
          parent: consumer.name.replace(/ process$/, ' publish'),
          kind: PRODUCER,
        });
      }

      // The answer's two halves follow the leg whose batch completed the search: the partner's
      // (gateway → orchestrator (plan) → fetcher → dedupe → orchestrator (gather)), or the own
      // index's store query, which skips the fetcher; then the page straight to the gateway, and its
      // charge through billing to the gateway, side by side.
      const gathered = spans.find(consumerOf('search.page.gathered', 'gateway'))!;
      const answered = spans.find(consumerOf('search.page.charged', 'gateway'))!;
      const path = servicesAlong(ancestry(spans, answered));
      expect([
        ['gateway', 'search-orchestrator', 'provider-fetcher', 'dedupe', 'search-orchestrator', 'billing', 'gateway'],
        ['gateway', 'search-orchestrator', 'dedupe', 'search-orchestrator', 'billing', 'gateway'],
      ]).toContainEqual(path);
      const gather = [
        'search.requested process',
        ...(path.includes('provider-fetcher')
          ? ['provider.fetch.requested process', 'provider.records.fetched process']
          : ['own-index.query.requested process']),
        'search.records.deduplicated process',
      ];
      expect(
        ancestry(spans, answered)
          .filter((s) => s.kind === CONSUMER)
          .map((s) => s.name),
      ).toEqual([...gather, 'billing.page.charge.requested process', 'search.page.charged process']);
      expect(
        ancestry(spans, gathered)
          .filter((s) => s.kind === CONSUMER)
          .map((s) => s.name),
      ).toEqual([...gather, 'search.page.gathered process']);

      // The new opening's event: dedupe's lifecycle change (through its outbox) → the watch matcher
      // → billing charges job.opened → the dispatcher stores it for the feed and delivery.
      const dispatched = chargedEventsStored(spans)!;
      const charged = spans.find((s) => s.service === 'billing' && s.name === 'event.emitted publish')!;
      const chain = [...ancestry(spans, charged), dispatched];
      expect(servicesAlong(chain)).toEqual([
        'gateway',
        'search-orchestrator',
        'provider-fetcher',
        'dedupe',
        'search-orchestrator',
        'billing',
        'webhook-dispatcher',
      ]);
      expect(chain.filter((s) => s.kind === CONSUMER).map((s) => s.name)).toEqual([
        'search.requested process',
        'provider.fetch.requested process',
        'provider.records.fetched process',
        'job.lifecycle.changed process',
        'event.charge.requested process',
        'event.emitted process',
      ]);
      expect(dispatched.attributes).toMatchObject({ 'jobs.event.has_webhook': true });
      expect(['job.opened', 'company.hiring_started']).toContain(dispatched.attributes['jobs.event.type']);

      // The partner's call is a span of its own in the fetcher, and its HTTP server span (the
      // simulator) is its grandchild through the HTTP client span. The own index is not called: its
      // store answers.
      const call = spans.find((s) => s.service === 'provider-fetcher' && s.name === 'provider provider_a call');
      expect(call?.attributes).toMatchObject({ 'jobs.provider': 'provider_a', 'jobs.outcome': 'ok' });
      const served = spans.filter(
        (s) => s.service === 'provider-sim' && s.kind === SERVER && ancestry(spans, s).includes(call!),
      );
      expect(served.length).toBeGreaterThan(0);
      expect(ancestry(spans, served[0]!).some((s) => s.kind === CLIENT && s.service === 'provider-fetcher')).toBe(true);
      expect(spans.some((s) => s.name === 'provider own_index call')).toBe(false);

      // Logs of the stages carry the trace id beside the request id.
      const requestId = res.headers.get('x-request-id');
      const logLines = (service: string) =>
        readFileSync(join(String(process.env['STACK_LOG_DIR']), `${service}.log`), 'utf8')
          .split('\n')
          .filter((line) => line.includes(traceId))
          .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(logLines('search-orchestrator')).toContainEqual(
        expect.objectContaining({ trace_id: traceId, request_id: requestId, msg: 'job change matched watches' }),
      );
      expect(logLines('webhook-dispatcher').length).toBeGreaterThan(0);
      expect(
        logLines('webhook-dispatcher').every(
          (line) => line['trace_id'] === traceId && line['request_id'] === requestId,
        ),
      ).toBe(true);

      // Stage attributes: what the stage decided, where an SRE looks for it.
      const stage = (service: string, topic: string) => spans.find(consumerOf(topic, service))!.attributes;
      expect(root.attributes).toMatchObject({
        'jobs.search.strategy': 'max_coverage',
        'jobs.account.plan': 'pro',
        'jobs.credits.charged': page.metadata.credits_charged,
        'jobs.page.jobs': 1,
      });
      expect(stage('search-orchestrator', 'search.requested')).toMatchObject({
        'jobs.search.strategy': 'max_coverage',
        'jobs.search.wave_providers': 'own_index,provider_a',
      });
      expect(stage('dedupe', 'provider.records.fetched')).toMatchObject({
        'jobs.records.in': expect.any(Number),
        'jobs.batch.canonical_jobs': expect.any(Number),
      });
      expect(stage('billing', 'billing.page.charge.requested')).toMatchObject({
        'jobs.billing.outcome': 'charged',
        'jobs.credits.charged': page.metadata.credits_charged,
        'jobs.page.already_paid': page.metadata.jobs_already_paid,
      });
      expect(stage('billing', 'event.charge.requested')).toMatchObject({
        'jobs.event.type': 'job.opened',
        'jobs.job.id': page.data[0]!.id,
      });
      expect(stage('search-orchestrator', 'job.lifecycle.changed')).toMatchObject({
        'jobs.job.change': 'opened',
        'jobs.events.made': 1,
      });
    },
  );

  it('keeps a search that opens many watched jobs to a few spans a stage, however many jobs', async () => {
    const openings = 30;
    const { live_key: key } = await createAccount({ plan: 'pro', credits: 100 });
    const domain = await addWorldCompany();
    expect((await api('/v1/watches', { key, body: { type: 'company', domain, webhook_url: hookUrl } })).status).toBe(
      201,
    );
    // as above: partner-only and posted long ago, so this search's merge opens them all
    const word = uniqueWord();
    const postedAt = new Date(Date.now() - 10 * 86_400_000).toISOString();
    for (let i = 0; i < openings; i++)
      await addWorldJob({ providers: ['provider_a'], company_domain: domain, shared_word: word, posted_at: postedAt });
    const callerTraceId = randomBytes(16).toString('hex');
    const res = await api('/v1/jobs/search', {
      key,
      headers: { traceparent: `00-${callerTraceId}-${randomBytes(8).toString('hex')}-01` },
      body: {
        filters: { title_or: [word] },
        waterfall: { strategy: 'max_coverage', providers: ['own_index', 'provider_a'] },
        limit: 50,
      },
    });
    expect(res.status).toBe(200);
    expect(JobSearchResponseSchema.parse(res.body).data).toHaveLength(openings);
    const traceId = await linkedTrace(callerTraceId);
    const spans = await spansUntil(
      traceId,
      (all) =>
        rootsOf(all).length === 1 &&
        all.some(consumerOf('search.page.charged', 'gateway')) &&
        published(all, 'event.emitted', 'billing') >= openings &&
        eventsStored(all) &&
        all.filter((s) => s.service === 'webhook-dispatcher' && s.name === 'webhook deliver').length >= openings,
    );
    // every change and event was handled, in far fewer spans than jobs: each stage's messages of
    // the trace share a process span, and what they publish to a topic a publish span
    const count = (name: string, service: string) => {
      const stage = spans.filter((s) => s.service === service && s.name === name);
      return { name, handled: handled(stage) >= openings, spans: stage.length < openings / 3 };
    };
    for (const [name, service] of [
      ['job.lifecycle.changed process', 'search-orchestrator'],
      ['event.charge.requested publish', 'search-orchestrator'],
      ['event.charge.requested process', 'billing'],
      ['event.emitted publish', 'billing'],
      ['event.emitted process', 'webhook-dispatcher'],
    ] as const)
      expect(count(name, service)).toEqual({ name, handled: true, spans: true });
    // each delivery to the customer is a span of its own (with its HTTP call); all else stays compact
    const deliveries = spans.filter((s) => s.service === 'webhook-dispatcher' && s.name === 'webhook deliver');
    expect(deliveries.length).toBeGreaterThanOrEqual(openings);
    const delivering = new Set(deliveries.map((s) => s.spanId));
    expect(spans.filter((s) => !delivering.has(s.spanId) && !delivering.has(s.parentSpanId ?? '')).length).toBeLessThan(
      60,
    );
  });

  it("continues an operator's trace on the admin port", async () => {
    const callerTraceId = randomBytes(16).toString('hex');
    const callerSpanId = randomBytes(8).toString('hex');
    const res = await fetch(`${stack.adminUrl}/admin/providers/reset`, {
      method: 'POST',
      headers: { authorization: `Bearer ${stack.adminToken}`, traceparent: `00-${callerTraceId}-${callerSpanId}-01` },
    });
    expect(res.status).toBe(204);
    const spans = await spansUntil(callerTraceId, (all) =>
      all.some((s) => s.service === 'gateway' && s.kind === SERVER),
    );
    expect(spans.find((s) => s.service === 'gateway' && s.kind === SERVER)).toMatchObject({
      parentSpanId: callerSpanId,
      links: [],
    });
  });
});
