import type { IHeaders } from 'kafkajs';

/** Headers every message carries, whoever produced it. */
export const MessageHeader = {
  RequestId: 'x-request-id',
  MessageId: 'x-message-id',
  Producer: 'x-producer',
  /** Comma-separated services the work has passed through, oldest first, producer last. */
  Stages: 'x-stages',
  TraceParent: 'traceparent',
  TraceState: 'tracestate',
} as const;

export type DecodedHeaders = Record<string, string>;

export function decodeHeaders(headers: IHeaders | undefined): DecodedHeaders {
  const out: DecodedHeaders = {};
  if (!headers) return out;
  for (const [name, raw] of Object.entries(headers)) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value === undefined || value === null) continue;
    out[name] = Buffer.isBuffer(value) ? value.toString('utf8') : String(value);
  }
  return out;
}

export function parseStages(value: string | undefined): string[] {
  return value ? value.split(',').filter(Boolean) : [];
}

/** The stage list a producer writes: what it received plus itself, unless it is already last. */
export function appendStage(stages: readonly string[], service: string): string[] {
  return stages[stages.length - 1] === service ? [...stages] : [...stages, service];
}
