import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/** One span as an OTLP/HTTP JSON export carries it, flattened with its service's name. */
export interface ReceivedSpan {
  service: string;
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  /** OTLP SpanKind: 1 internal, 2 server, 3 client, 4 producer, 5 consumer. */
  kind: number;
  attributes: Record<string, string | number | boolean>;
  /** The spans this one links to (another trace's, for a request that brought its own traceparent). */
  links: Array<{ traceId: string; spanId: string }>;
  /** Wall clock, milliseconds since the epoch (fractional). */
  startMs: number;
  endMs: number;
}

const AnyValue = z.object({
  stringValue: z.string().optional(),
  intValue: z.union([z.string(), z.number()]).optional(),
  doubleValue: z.number().optional(),
  boolValue: z.boolean().optional(),
});
const KeyValue = z.object({ key: z.string(), value: AnyValue });
/** The parts of `ExportTraceServiceRequest` (opentelemetry-proto, JSON mapping with hex ids) the tests read. */
const ExportTraceServiceRequest = z.object({
  resourceSpans: z
    .array(
      z.object({
        resource: z.object({ attributes: z.array(KeyValue).default([]) }).optional(),
        scopeSpans: z
          .array(
            z.object({
              spans: z
                .array(
                  z.object({
                    traceId: z.string(),
                    spanId: z.string(),
                    parentSpanId: z.string().optional(),
                    name: z.string(),
                    kind: z.number().optional(),
                    startTimeUnixNano: z.union([z.string(), z.number()]),
                    endTimeUnixNano: z.union([z.string(), z.number()]),
                    attributes: z.array(KeyValue).default([]),
                    links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).default([]),
                  }),
                )
                .default([]),
            }),
          )
          .default([]),
      }),
    )
    .default([]),
});

/** OTLP JSON times are 64-bit nanoseconds, as strings or numbers: exact through BigInt. */
function nanosToMs(nanos: string | number): number {
  const value = BigInt(typeof nanos === 'number' ? Math.round(nanos) : nanos);
  return Number(value / 1000n) / 1000;
}

function attributeValue(value: z.infer<typeof AnyValue>): string | number | boolean | undefined {
  if (value.stringValue !== undefined) return value.stringValue;
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.doubleValue ?? value.boolValue;
}

function attributeMap(list: z.infer<typeof KeyValue>[]): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {};
  for (const { key, value } of list) {
    const v = attributeValue(value);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/**
 * An in-process OTLP/HTTP receiver (JSON encoding, `POST /v1/traces`) for tests: the services of
 * a test stack export to it (scripts/stack.mjs sets OTEL_EXPORTER_OTLP_ENDPOINT and
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/json) and it keeps every span it receives.
 */
export class OtlpReceiver {
  readonly spans: ReceivedSpan[] = [];
  private server: Server | undefined;

  async listen(port: number): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        if (req.method !== 'POST' || req.url !== '/v1/traces') {
          res.writeHead(404).end();
          return;
        }
        const parsed = ExportTraceServiceRequest.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}'));
        if (!parsed.success) {
          res
            .writeHead(400, { 'content-type': 'application/json' })
            .end(JSON.stringify({ message: parsed.error.message }));
          return;
        }
        for (const resourceSpans of parsed.data.resourceSpans) {
          const service = String(attributeMap(resourceSpans.resource?.attributes ?? [])['service.name'] ?? 'unknown');
          for (const { spans } of resourceSpans.scopeSpans) {
            for (const span of spans) {
              this.spans.push({
                service,
                traceId: span.traceId,
                spanId: span.spanId,
                parentSpanId: span.parentSpanId || null,
                name: span.name,
                kind: span.kind ?? 0,
                attributes: attributeMap(span.attributes),
                links: span.links.map(({ traceId, spanId }) => ({ traceId, spanId })),
                startMs: nanosToMs(span.startTimeUnixNano),
                endMs: nanosToMs(span.endTimeUnixNano),
              });
            }
          }
        }
        // ExportTraceServiceResponse: an empty object is full success.
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    await new Promise<void>((resolve, reject) => {
      this.server!.once('error', reject);
      this.server!.listen(port, '127.0.0.1', resolve);
    });
  }

  get port(): number {
    return (this.server?.address() as AddressInfo).port;
  }

  trace(traceId: string): ReceivedSpan[] {
    return this.spans.filter((span) => span.traceId === traceId);
  }

  /** The trace ids of the spans that link to the given caller's trace. */
  linkedFrom(callerTraceId: string): string[] {
    return [
      ...new Set(
        this.spans.filter((span) => span.links.some((l) => l.traceId === callerTraceId)).map((span) => span.traceId),
      ),
    ];
  }

  async close(): Promise<void> {
    await new Promise((resolve) => this.server?.close(resolve));
  }
}

/**
 * Spans whose parent was not received: the root alone once a trace is complete (parents end, and so are exported, after
 * their children).
 */
export function rootsOf(spans: readonly ReceivedSpan[]): ReceivedSpan[] {
  const ids = new Set(spans.map((s) => s.spanId));
  return spans.filter((s) => !s.parentSpanId || !ids.has(s.parentSpanId));
}

/** The spans from the root down to `span`, root first (stops where a parent was not received). */
export function ancestry(spans: readonly ReceivedSpan[], span: ReceivedSpan): ReceivedSpan[] {
  const byId = new Map(spans.map((s) => [s.spanId, s]));
  const path = [span];
  for (
    let parent = span.parentSpanId ? byId.get(span.parentSpanId) : undefined;
    parent;
    parent = parent.parentSpanId ? byId.get(parent.parentSpanId) : undefined
  ) {
    path.unshift(parent);
  }
  return path;
}

/** The services a path of spans passes through, consecutive repeats collapsed. */
export function servicesAlong(path: readonly ReceivedSpan[]): string[] {
  return path.map((s) => s.service).filter((service, i, all) => i === 0 || all[i - 1] !== service);
}
