import { register } from 'node:module';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { KafkaJsInstrumentation } from '@opentelemetry/instrumentation-kafkajs';
import { IORedisInstrumentation } from '@opentelemetry/instrumentation-ioredis';
import { PgInstrumentation } from '@opentelemetry/instrumentation-pg';
import { PrismaInstrumentation } from '@prisma/instrumentation';
import { BatchSpanProcessor, NoopSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace';

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
    ? [new BatchSpanProcessor({ exporter: new OTLPTraceExporter(), scheduledDelayMillis: 500 })]
    : // Without an exporter the SDK would install no tracer provider at all; spans still need ids.
      [new NoopSpanProcessor()];
  sdk = new NodeSDK({
    serviceName,
    spanProcessors,
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (req) => req.url === '/livez' || req.url === '/readyz',
      }),
      new KafkaJsInstrumentation(),
      new IORedisInstrumentation(),
      new PgInstrumentation(),
      new PrismaInstrumentation(),
    ],
  });
  sdk.start();
  return sdk;
}

export async function stopTelemetry(): Promise<void> {
  await sdk?.shutdown();
  sdk = undefined;
}
