import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { SecretRedactingSpanProcessor } from './redacting-span-processor.js';
import { REDACTED } from './secret-redaction.js';

const KEY = `svc_live_${'k'.repeat(32)}`;

/** A provider whose exporter sees what an exporter would, after the redaction. */
function tracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new TracerProvider({
    spanProcessors: [new SecretRedactingSpanProcessor(), new SimpleSpanProcessor({ exporter })],
  });
  return { tracer: provider.getTracer('spec'), exported: () => exporter.getFinishedSpans() };
}

describe('SecretRedactingSpanProcessor', () => {
  it('takes credentials out of URL attributes set at start and later, before export', () => {
    const { tracer, exported } = tracing();
    const span = tracer.startSpan('GET', {
      attributes: {
        'url.path': `/v1/jobs/${KEY}`,
        'url.query': `api_key=${KEY}&limit=5`,
        'http.route': '/v1/jobs/:id',
      },
    });
    span.setAttribute('url.full', `http://127.0.0.1/cb?token=abc&page=2`);
    span.setAttribute('http.target', `/v1/account?x=${KEY}`);
    span.setAttribute('http.url', `http://127.0.0.1/v1/account?password=pw`);
    span.end();
    expect(exported()[0]!.attributes).toEqual({
      'url.path': `/v1/jobs/${REDACTED}`,
      'url.query': `api_key=${REDACTED}&limit=5`,
      'http.route': '/v1/jobs/:id',
      'url.full': `http://127.0.0.1/cb?token=${REDACTED}&page=2`,
      'http.target': `/v1/account?x=${REDACTED}`,
      'http.url': `http://127.0.0.1/v1/account?password=${REDACTED}`,
    });
  });

  it('takes a credential out of any other attribute and out of the span name', () => {
    const { tracer, exported } = tracing();
    const span = tracer.startSpan(`lookup ${KEY}`, {
      attributes: { 'jobs.note': `key ${KEY}`, 'jobs.list': ['a', KEY], 'jobs.count': 3 },
    });
    span.end();
    const [finished] = exported();
    expect(finished!.name).toBe(`lookup ${REDACTED}`);
    expect(finished!.attributes).toEqual({
      'jobs.note': `key ${REDACTED}`,
      'jobs.list': ['a', REDACTED],
      'jobs.count': 3,
    });
  });

  it('blanks captured headers whose names hold credentials, in both naming styles', () => {
    const { tracer, exported } = tracing();
    const span = tracer.startSpan('POST', {
      attributes: {
        'http.request.header.authorization': [`Bearer ${'x'.repeat(8)}`],
        'http.request.header.cookie': ['dashboard_session=abc'],
        'http.request.header.idempotency-key': ['retry-1'],
        'http.request.header.idempotency_key': ['retry-1'],
        'http.request.header.service-signature': ['t=1,v1=ab'],
        'http.request.header.x-csrf-token': ['t0k'],
        'http.response.header.set-cookie': ['dashboard_session=abc'],
        'http.request.header.content-type': ['application/json'],
      },
    });
    span.end();
    expect(exported()[0]!.attributes).toEqual({
      'http.request.header.authorization': REDACTED,
      'http.request.header.cookie': REDACTED,
      'http.request.header.idempotency-key': REDACTED,
      'http.request.header.idempotency_key': REDACTED,
      'http.request.header.service-signature': REDACTED,
      'http.request.header.x-csrf-token': REDACTED,
      'http.response.header.set-cookie': REDACTED,
      'http.request.header.content-type': ['application/json'],
    });
  });
});
