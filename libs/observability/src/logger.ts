import { trace } from '@opentelemetry/api';
import { pino, type Logger, type LoggerOptions } from 'pino';
import { requestContext } from './request-context.js';
import { redactUrl } from './secret-redaction.js';

export type { Logger } from 'pino';

/** Header and field names whose values must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers["idempotency-key"]',
  'req.headers.cookie',
  'req.headers["service-signature"]',
  'req.headers["x-csrf-token"]',
  'headers.authorization',
  'headers["idempotency-key"]',
  'headers.cookie',
  'headers["service-signature"]',
  'headers["x-csrf-token"]',
  'res.headers["set-cookie"]',
  'authorization',
  '*.authorization',
  'apiKey',
  '*.apiKey',
  'key',
  '*.key',
  'live_key',
  'test_key',
  'secret',
  '*.secret',
  'password',
  '*.password',
];

/** Fields that hold a URL: logged with their secrets taken out (secret-redaction.ts), the rest kept. */
const URL_PATHS = ['url', 'req.url', '*.url'];

const CENSORED = '[redacted]';

/** A URL keeps what is not secret in it; every other redacted field is blanked. */
function censor(value: unknown, path: string[]): unknown {
  return path.at(-1) === 'url' && typeof value === 'string' ? redactUrl(value) : CENSORED;
}

export interface LoggerSettings {
  service: string;
  level?: LoggerOptions['level'];
  instanceId?: string;
}

/**
 * Structured JSON logs. Every line carries the service, and, when there is one, the
 * request id of the work in progress and the active trace and span ids.
 */
export function createLogger(settings: LoggerSettings, destination?: pino.DestinationStream): Logger {
  const options: LoggerOptions = {
    level: settings.level ?? 'info',
    base: { service: settings.service, ...(settings.instanceId ? { instance: settings.instanceId } : {}) },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: { paths: [...REDACTED_PATHS, ...URL_PATHS], censor },
    formatters: { level: (label) => ({ level: label }) },
    mixin() {
      const fields: Record<string, string> = {};
      const ctx = requestContext.current();
      if (ctx) fields['request_id'] = ctx.requestId;
      const span = trace.getActiveSpan();
      if (span) {
        const { traceId, spanId } = span.spanContext();
        fields['trace_id'] = traceId;
        fields['span_id'] = spanId;
      }
      return fields;
    },
  };
  return destination ? pino(options, destination) : pino(options);
}
