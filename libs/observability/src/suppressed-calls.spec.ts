import type { AddressInfo } from 'node:net';
import { context, SpanKind } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import { MeterProvider, MetricReader, type HistogramMetricData } from '@opentelemetry/sdk-metrics';
import { httpInstrumentations } from './telemetry.js';
import { useInMemoryTracing } from './testing/in-memory-tracing.js';

/**
 * The services' HTTP client instrumentation on real calls: a call made where tracing is suppressed
 * (the webhook sender's POSTs, untraced bookkeeping) leaves no client span and no point of
 * `http.client.request.duration`; a traced call leaves both.
 */
class CollectingReader extends MetricReader {
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

const exporter = useInMemoryTracing();
const reader = new CollectingReader();
let unregister: () => void;

beforeAll(() => {
  const meterProvider = new MeterProvider({ readers: [reader] });
  unregister = registerInstrumentations({ meterProvider, instrumentations: httpInstrumentations() });
});
afterAll(() => unregister());

/** Client calls the duration histogram counted so far. */
async function clientCallsMeasured(): Promise<number> {
  const { resourceMetrics } = await reader.collect();
  const histogram = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === 'http.client.request.duration') as HistogramMetricData | undefined;
  return (histogram?.dataPoints ?? []).reduce((sum, point) => sum + point.value.count, 0);
}

const clientSpans = () => exporter.getFinishedSpans().filter((span) => span.kind === SpanKind.CLIENT).length;

it('makes neither a span nor a duration point for a call where tracing is suppressed', async () => {
  const http = process.getBuiltinModule('node:http');
  const server = http.createServer((_req, res) => res.writeHead(200).end('{}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  const call = async () => await (await fetch(url, { method: 'POST', body: '{}' })).text();
  try {
    await context.with(suppressTracing(context.active()), call);
    await context.with(suppressTracing(context.active()), call);
    expect(clientSpans()).toBe(0);
    expect(await clientCallsMeasured()).toBe(0);
    await call();
    // the client span ends as the body is read
    while (clientSpans() < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(clientSpans()).toBe(1);
    expect(await clientCallsMeasured()).toBe(1);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
