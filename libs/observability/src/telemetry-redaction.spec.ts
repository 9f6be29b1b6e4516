import type { AddressInfo } from 'node:net';
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { SecretRedactingSpanProcessor } from './redacting-span-processor.js';
import { httpInstrumentations } from './telemetry.js';

/**
 * The services' HTTP telemetry as started (the same instrumentations and the redaction ahead of
 * the exporters), driven by a real request: a server span (node:http) and a client span (fetch,
 * undici) for a call whose URL and headers carry every kind of secret. Nothing secret may reach
 * the exporter, and no header may be captured at all: turning `headersToSpanAttributes` on fails
 * this spec.
 */
const KEY = `svc_live_${'q7'.repeat(16)}`;
const SECRETS = {
  authorization: `Bearer ${KEY}`,
  cookie: 'dashboard_session=session-cookie-value',
  'idempotency-key': 'idempotency-key-value',
  'service-signature': 't=1700000000,v1=signature-value',
  'x-csrf-token': 'csrf-token-value',
};

/** What an instrumentation patches when a module loads (its `init()`, protected in its types). */
interface ModulePatch {
  name: string;
  patch?(exports: unknown): unknown;
  unpatch?(exports: unknown): void;
}

const exporter = new InMemorySpanExporter();
const contextManager = new AsyncLocalStorageContextManager();
const http = process.getBuiltinModule('node:http');
let unregister: () => void;
let httpPatch: ModulePatch;

beforeAll(() => {
  context.setGlobalContextManager(contextManager.enable());
  const tracerProvider = new TracerProvider({
    spanProcessors: [new SecretRedactingSpanProcessor(), new SimpleSpanProcessor({ exporter })],
  });
  const instrumentations = httpInstrumentations();
  unregister = registerInstrumentations({ tracerProvider, instrumentations });
  // In a service the instrumentation patches node:http as it loads; under jest, whose module
  // registry hides Node's require from the hook, its own patch is applied to Node's module here.
  const [server] = instrumentations as unknown as Array<{ init(): ModulePatch[] }>;
  httpPatch = server!.init().find((patch) => patch.name === 'http')!;
  httpPatch.patch?.(http);
});
afterAll(() => {
  httpPatch.unpatch?.(http);
  unregister();
  context.disable();
});

it('exports the HTTP spans of a call without its secrets and without any header', async () => {
  const server = http.createServer((_req, res) => res.writeHead(200, { 'set-cookie': 'reply-cookie-value' }).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    const url = `http://127.0.0.1:${port}/v1/jobs/${KEY}?api_key=${KEY}&token=plain-token-value&limit=5`;
    const res = await fetch(url, { headers: SECRETS });
    await res.text();
    // the server's span ends as its answer is flushed, the client's as the body is read: wait for both
    while (exporter.getFinishedSpans().length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  const spans = exporter.getFinishedSpans();
  const kinds = spans.map((span) => span.kind).sort();
  // SpanKind.SERVER = 1, SpanKind.CLIENT = 2: both sides of the call were recorded.
  expect(kinds).toEqual([1, 2]);
  const recorded = JSON.stringify(spans.map((span) => ({ name: span.name, attributes: span.attributes })));
  expect(recorded).toContain('REDACTED');
  expect(recorded).toContain('limit=5');
  for (const secret of [KEY, 'plain-token-value', 'reply-cookie-value', ...Object.values(SECRETS)])
    expect(recorded).not.toContain(secret);
  const headerAttributes = spans.flatMap((span) =>
    Object.keys(span.attributes).filter(
      (name) => name.startsWith('http.request.header.') || name.startsWith('http.response.header.'),
    ),
  );
  expect(headerAttributes).toEqual([]);
});
