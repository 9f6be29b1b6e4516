import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter as OtlpProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { OTLPTraceExporter as OtlpJsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { prometheusReader } from './metrics.js';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanExporter, type SpanProcessor } from '@opentelemetry/sdk-trace';

let sdk: NodeSDK | undefined;

/**
 * Starts the OpenTelemetry SDK. Must run before the instrumented libraries are imported, so it
 * is loaded with `node --import @jobs/observability/register` ahead of every service's main.
 * Without OTEL_EXPORTER_OTLP_ENDPOINT spans are still created (ids reach logs and Kafka
 * headers) but nothing is exported.
 */
export function startTelemetry(serviceName: string, env: NodeJS.ProcessEnv = process.env): NodeSDK {
  if (sdk) return sdk;
  // ESM modules (NestJS 12, our own code) are only patchable through the loader hook.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const spanProcessors: SpanProcessor[] = env['OTEL_EXPORTER_OTLP_ENDPOINT']
    ? [new BatchSpanProcessor({ exporter: traceExporter(env), scheduledDelayMillis: 500 })]
    : // Without an exporter the SDK would install no tracer provider at all; spans still need ids.
      [new NoopSpanProcessor()];
  sdk = new NodeSDK({
    serviceName,
    spanProcessors,
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
      new IORedisInstrumentation(),
      new PgInstrumentation(),
      new PrismaInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
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
