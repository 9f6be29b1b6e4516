import { register } from 'node:module';
import type { MessagePort } from 'node:worker_threads';
import { context, metrics, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  CompositePropagator,
  isTracingSuppressed,
  W3CBaggagePropagator,
  W3CTraceContextPropagator,
} from '@opentelemetry/core';
import { registerInstrumentations } from '@opentelemetry/instrumentation';
import {
  defaultResource,
  detectResources,
  envDetector,
  hostDetector,
  osDetector,
  processDetector,
  resourceFromAttributes,
  serviceInstanceIdDetector,
} from '@opentelemetry/resources';
import { MeterProvider } from '@opentelemetry/sdk-metrics';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import {
  register as registerInThread,
  supportsSyncHooks,
  type RegisterHooksOptions,
} from 'import-in-the-middle/register-hooks.mjs';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { prometheusReader } from './metrics.js';
import { shownResource } from './process-resource.js';
import { redisStatement } from './redis-statement.js';
import { SecretRedactingSpanProcessor } from './redacting-span-processor.js';
import { RequestsKeptSampler } from './requests-kept-sampler.js';
import { DRIVER_SCOPES, DriverFoldingSpanProcessor } from './driver-folding-span-processor.js';
import { CallerLinkSampler, CallerLinkSpanProcessor, EdgePropagator, markUntrustedTraceCarrier } from './trace-edge.js';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NoopSpanProcessor,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  TracerProvider,
  type Sampler,
  type SpanExporter,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace';

/** What startTelemetry set up, for stopTelemetry. */
interface Telemetry {
  tracerProvider: TracerProvider;
  meterProvider: MeterProvider;
  contextManager: AsyncLocalStorageContextManager;
}

let telemetry: Telemetry | undefined;
let hooksAcknowledged: (() => Promise<void>) | undefined;

/**
 * Starts OpenTelemetry: tracer and meter providers, the context manager, W3C propagation and the
 * instrumentations. Must run before the instrumented libraries are imported, so it is loaded
 * with `node --import @jobs/observability/register` ahead of every service's main. Spans go to
 * the trace viewer (Zipkin, OTEL_EXPORTER_ZIPKIN_ENDPOINT) and to an OTLP receiver
 * (OTEL_EXPORTER_OTLP_ENDPOINT), each when set; with neither, spans are still created (ids reach
 * logs, Kafka headers and the `traceparent` answer header) but nothing is exported.
 *
 * The providers are put together here rather than by `@opentelemetry/sdk-node`'s NodeSDK, which
 * imports every exporter it could be configured with (gRPC, logs, Zipkin, YAML configuration):
 * CPU on every start for modules no service uses, and a start after a crash is
 * what a restarted service's recovery waits for (docs/operations.md, "Recovery after a crash"). Each trace
 * exporter is imported only when there is an endpoint to export to.
 */
export async function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): Promise<void> {
  if (telemetry || env['OTEL_SDK_DISABLED'] === 'true') return;
  // ES modules (pg, ioredis, node:http as imported by ES modules) are only patchable through the
  // loader hook. It wraps only the modules an instrumentation names (the channel tells the
  // loader): by default it wraps every module loaded, Nest's and ours too, for nothing, which
  // slows every start, and so a restart's recovery.
  const channel = createAddHookMessageChannel();
  hooksAcknowledged = channel.waitForAllMessagesAcknowledged;
  if (supportsSyncHooks()) {
    // In the service's own thread (module.registerHooks): the off-thread loader made the main
    // thread wait on a worker for every import, which slows every start.
    // The same channel feeds the include list; in one thread
    // its messages arrive on the next turn of the event loop, before register.ts lets main load.
    // (The port is an option create-hook's applyOptions reads on both paths; the .d.mts omits it.)
    // Every instrumented library here is CommonJS and patched in place, which both paths see; an
    // ES-module named import of node:http's functions would keep the unpatched ones on this
    // path, and no service makes its outgoing calls that way (fetch is undici's channel).
    const options: RegisterHooksOptions & { addHookMessagePort: MessagePort } = {
      include: [],
      addHookMessagePort: channel.addHookMessagePort,
    };
    registerInThread(options);
  } else {
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, channel.registerOptions);
  }
  const exporters = await traceExporters(env);
  const spanProcessors: SpanProcessor[] = exporters.length
    ? exporters.map((exporter) => new BatchSpanProcessor({ exporter, scheduledDelayMillis: 500 }))
    : // Without an exporter spans still need ids (logs, Kafka headers, traceparent).
      [new NoopSpanProcessor()];
  // The resource NodeSDK would detect (OTEL_RESOURCE_ATTRIBUTES, process, host, OS, instance id),
  // of which spans and metrics show what names the process.
  const detected = defaultResource()
    .merge(
      detectResources({
        detectors: [serviceInstanceIdDetector, processDetector, hostDetector, osDetector, envDetector],
      }),
    )
    .merge(resourceFromAttributes({ 'service.name': serviceName }));
  await detected.waitForAsyncAttributes?.();
  const resource = shownResource(detected);
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  // A request on an untrusted port (trace-edge.ts) links the caller's trace instead of continuing it.
  propagation.setGlobalPropagator(
    new EdgePropagator(
      new CompositePropagator({ propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()] }),
    ),
  );
  const tracerProvider = new TracerProvider({
    resource,
    spanProcessors: [new CallerLinkSpanProcessor(), exportedSpans(env, spanProcessors)],
    sampler: edgeAwareSampler(samplerFromEnv(env, exporters.length > 0)),
  });
  trace.setGlobalTracerProvider(tracerProvider);
  // Metrics are pulled: each service serves them at GET /metrics (metrics.ts).
  const meterProvider = new MeterProvider({ resource, readers: [prometheusReader()] });
  metrics.setGlobalMeterProvider(meterProvider);
  registerInstrumentations({
    tracerProvider,
    meterProvider,
    instrumentations: [
      ...httpInstrumentations(),
      // No kafkajs instrumentation: libs/kafka makes the producer and consumer spans itself. The
      // instrumentation would start each send's span from the sender's context and overwrite the
      // trace context an outbox row carries from the transaction that wrote it.
      new IORedisInstrumentation({ dbStatementSerializer: redisStatement }),
      new PgInstrumentation(),
      new PrismaInstrumentation(),
    ],
  });
  telemetry = { tracerProvider, meterProvider, contextManager };
}

/**
 * The HTTP server and client instrumentations (node:http, and fetch through undici: the provider
 * adapters' and the webhook sender's calls). Neither captures a header
 * (`headersToSpanAttributes`): keys, cookies, Idempotency-Keys and webhook signatures travel in
 * headers, and telemetry-redaction.spec.ts fails if a span carries one.
 */
export function httpInstrumentations(): [HttpInstrumentation, UndiciInstrumentation] {
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (req) => req.url === '/livez' || req.url === '/readyz',
      // runs just before the caller's context is extracted (trace-edge.ts)
      startIncomingSpanHook: (req) => {
        markUntrustedTraceCarrier(req);
        return {};
      },
    }),
    // A call made where tracing is suppressed (the webhook sender's POSTs to customers' endpoints,
    // untraced bookkeeping) makes no span, so the instrumentation does none of its work for it: no
    // URL parse, no attributes, and no `http.client.request.duration` point, whose `server.address`
    // would be a series per customer host.
    new UndiciInstrumentation({ ignoreRequestHook: () => isTracingSuppressed(context.active()) }),
  ];
}

/**
 * OTEL_TRACES_SAMPLER as the specification names its values (OTEL_TRACES_SAMPLER_ARG the ratio).
 * Unset while exporting: every request's trace and TRACES_BACKGROUND_RATIO (0.01) of the
 * background's (RequestsKeptSampler). Unset with nowhere to send spans, recording them
 * (attributes, events, timings) is work for nothing, so parent-based always-off: trace and span
 * ids still exist, and a caller's sampled trace is still recorded downstream.
 */
export function samplerFromEnv(env: NodeJS.ProcessEnv, exporting: boolean): Sampler {
  const ratio = (name: string, unset: number): number => {
    const value = Number(env[name]);
    return env[name]?.trim() && value >= 0 && value <= 1 ? value : unset;
  };
  switch (env['OTEL_TRACES_SAMPLER']?.trim()) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio('OTEL_TRACES_SAMPLER_ARG', 1));
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio('OTEL_TRACES_SAMPLER_ARG', 1)) });
    default:
      return exporting
        ? new RequestsKeptSampler(ratio('TRACES_BACKGROUND_RATIO', 0.01))
        : new ParentBasedSampler({ root: new AlwaysOffSampler() });
  }
}

/**
 * The specification's samplers decide a public request (whose caller's context is only linked,
 * trace-edge.ts) as a child of that caller, so a caller that asks for its request to be traced
 * gets it traced. RequestsKeptSampler records every request whatever the caller asked.
 */
function edgeAwareSampler(sampler: Sampler): Sampler {
  return sampler instanceof RequestsKeptSampler ? sampler : new CallerLinkSampler(sampler);
}

/**
 * What reaches the exporters: secrets taken out of each span as it ends, before an exporting
 * processor reads it; and, unless TRACES_DRIVER_SPANS=1, driver calls folded into their steps.
 */
function exportedSpans(env: NodeJS.ProcessEnv, exporting: SpanProcessor[]): SpanProcessor {
  const redacted = [new SecretRedactingSpanProcessor(), ...exporting];
  return new DriverFoldingSpanProcessor(redacted, env['TRACES_DRIVER_SPANS']?.trim() === '1' ? {} : DRIVER_SCOPES);
}

/**
 * Resolves once the loader has taken in every module the instrumentations hook; the preload
 * (register.ts) awaits it, so no instrumented module loads before its hook.
 */
export function telemetryHooksReady(): Promise<void> {
  return hooksAcknowledged?.() ?? Promise.resolve();
}

/** The exporters whose endpoints are set: the trace viewer's (Zipkin v2 JSON) and an OTLP receiver's. */
export async function traceExporters(env: NodeJS.ProcessEnv): Promise<SpanExporter[]> {
  const exporters: SpanExporter[] = [];
  const zipkin = env['OTEL_EXPORTER_ZIPKIN_ENDPOINT']?.trim();
  if (zipkin) {
    // Zipkin's own format at /api/v2/spans: its server takes no OTLP.
    const { ZipkinExporter } = await import('@opentelemetry/exporter-zipkin');
    exporters.push(new ZipkinExporter({ url: zipkin }));
  }
  if (env['OTEL_EXPORTER_OTLP_ENDPOINT']?.trim()) exporters.push(await otlpExporter(env));
  return exporters;
}

/** OTLP over HTTP, protobuf by default; `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` for JSON receivers. */
async function otlpExporter(env: NodeJS.ProcessEnv): Promise<SpanExporter> {
  const protocol = (
    env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ??
    env['OTEL_EXPORTER_OTLP_PROTOCOL'] ??
    'http/protobuf'
  ).trim();
  if (protocol === 'http/json') {
    const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-http');
    return new OTLPTraceExporter();
  }
  const { OTLPTraceExporter } = await import('@opentelemetry/exporter-trace-otlp-proto');
  return new OTLPTraceExporter();
}

export async function stopTelemetry(): Promise<void> {
  if (!telemetry) return;
  const { tracerProvider, meterProvider, contextManager } = telemetry;
  telemetry = undefined;
  await Promise.all([tracerProvider.shutdown(), meterProvider.shutdown()]);
  contextManager.disable();
}
