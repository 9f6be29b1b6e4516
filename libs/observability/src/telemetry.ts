import { register } from 'node:module';
import type { MessagePort } from 'node:worker_threads';
import { createAddHookMessageChannel } from 'import-in-the-middle';
import { register as registerInThread, supportsSyncHooks, type RegisterHooksOptions } from 'import-in-the-middle/register-hooks.mjs';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter as OtlpProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { prometheusReader } from './metrics.js';
import { redisStatement } from './redis-statement.js';
import { AlwaysOffSampler, BatchSpanProcessor, NoopSpanProcessor, ParentBasedSampler, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';

let sdk: NodeSDK | undefined;
let hooksAcknowledged: (() => Promise<void>) | undefined;

/**
 * Starts the OpenTelemetry SDK. Must run before the instrumented libraries are imported, so it
 * is loaded with `node --import @jobs/observability/register` ahead of every service's main.
 * Without OTEL_EXPORTER_OTLP_ENDPOINT spans are still created (ids reach logs and Kafka
 * headers) but nothing is exported.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK {
  if (sdk) return sdk;
  // ES modules (pg, ioredis, node:http as imported by ES modules) are only patchable through the
  // loader hook. It wraps only the modules an instrumentation names (the channel tells the
  // loader): by default it wraps every module loaded, Nest's and ours too, for nothing, which
  // was a third of a service's start-up CPU (README "Fault tests": start-up).
  const channel = createAddHookMessageChannel();
  hooksAcknowledged = channel.waitForAllMessagesAcknowledged;
  if (supportsSyncHooks()) {
    // In the service's own thread (module.registerHooks): the off-thread loader made the main
    // thread wait on a worker for every import, about a third of the gateway's start-up CPU
    // (bench/README, issue 14: recovery). The same channel feeds the include list; in one thread
    // its messages arrive on the next turn of the event loop, before register.ts lets main load.
    // (The port is an option create-hook's applyOptions reads on both paths; the .d.mts omits it.)
    // Every instrumented library here is CommonJS and patched in place, which both paths see; an
    // ES-module named import of node:http's functions would keep the unpatched ones on this
    // path, and no service makes its outgoing calls that way (fetch is undici's channel).
    const options: RegisterHooksOptions & { addHookMessagePort: MessagePort } = { include: [], addHookMessagePort: channel.addHookMessagePort };
    registerInThread(options);
  } else {
    register('@opentelemetry/instrumentation/hook.mjs', import.meta.url, channel.registerOptions);
  }
  const exporting = Boolean(env['OTEL_EXPORTER_OTLP_ENDPOINT']);
  const spanProcessors: SpanProcessor[] = exporting
    ? [new BatchSpanProcessor({ exporter: traceExporter(env), scheduledDelayMillis: 500 })]
    : // Without an exporter the SDK would install no tracer provider at all; spans still need ids.
      [new NoopSpanProcessor()];
  sdk = new NodeSDK({
    serviceName,
    spanProcessors,
    // With nowhere to send spans, recording them (attributes, events, timings) is work for
    // nothing: the default sampler is then parent-based always-off. Trace and span ids still
    // exist (logs, Kafka headers, traceparent), and a caller's sampled trace is still recorded
    // downstream. OTEL_TRACES_SAMPLER, when set, decides as usual.
    ...(!exporting && env['OTEL_TRACES_SAMPLER'] === undefined ? { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }) } : {}),
    // Metrics are pulled: each service serves them at GET /metrics (metrics.ts).
    metricReaders: [prometheusReader()],
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/livez' || req.url === '/readyz',
      }),
      // No kafkajs instrumentation: libs/kafka makes the producer and consumer spans itself. The
      // instrumentation would start each send's span from the sender's context and overwrite the
      // trace context an outbox row carries from the transaction that wrote it.
      // fetch (undici) carries the provider adapters' and the webhook sender's calls.
      new UndiciInstrumentation(),
      new IORedisInstrumentation({ dbStatementSerializer: redisStatement }),
      new PgInstrumentation(),
      new PrismaInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}

/**
 * Resolves once the loader has taken in every module the instrumentations hook; the preload
 * (register.ts) awaits it, so no instrumented module loads before its hook.
 */
export function telemetryHooksReady(): Promise<void> {
  return hooksAcknowledged?.() ?? Promise.resolve();
}

/** OTLP over HTTP, protobuf by default; `OTEL_EXPORTER_OTLP_PROTOCOL=http/json` for JSON receivers. */
function traceExporter(env: NodeJS.ProcessEnv): SpanExporter {
  const protocol = (env['OTEL_EXPORTER_OTLP_TRACES_PROTOCOL'] ?? env['OTEL_EXPORTER_OTLP_PROTOCOL'] ?? 'http/protobuf').trim();
  return protocol === 'http/json' ? new OtlpJsonTraceExporter() : new OtlpProtoTraceExporter();
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
