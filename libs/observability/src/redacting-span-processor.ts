import type { AttributeValue } from '@opentelemetry/api';
import type { Span, SpanProcessor } from '@opentelemetry/sdk-trace';
import { isSecretName, REDACTED, redactPath, redactQuery, redactSecrets, redactUrl } from './secret-redaction.js';

/** Attributes that hold a URL or a part of one, in the stable and the older HTTP semantic conventions. */
const URL_ATTRIBUTES: Record<string, (value: string) => string> = {
  'url.full': redactUrl,
  'url.original': redactUrl,
  'http.url': redactUrl,
  'http.target': redactUrl,
  'url.path': redactPath,
  'url.query': redactQuery,
};

/** A captured header (`headersToSpanAttributes`): `http.request.header.<name>`, `http.response.header.<name>`. */
const HEADER_ATTRIBUTE = /^http\.(?:request|response)\.header\.(.+)$/;

/**
 * Rewrites every span as it ends, before any exporter reads it: URL attributes lose their secrets
 * (secret-redaction.ts), any other attribute or the span's name loses a credential found in it,
 * and a captured header with a secret name (`authorization`, `cookie`, `idempotency-key`,
 * `service-signature`...) loses its value. Whatever instrumentation made the span (http, undici,
 * our own), nothing it recorded reaches the trace viewer or an OTLP receiver unredacted.
 *
 * `onEnding` is the one moment a processor may still change an ended span: the span is complete
 * and not yet handed to the export processors, which read it in `onEnd`.
 */
export class SecretRedactingSpanProcessor implements SpanProcessor {
  onStart(): void {}

  onEnding(span: Span): void {
    for (const [name, value] of Object.entries(span.attributes)) {
      if (value === undefined) continue;
      const redacted = redactAttribute(name, value);
      if (redacted !== value) span.setAttribute(name, redacted);
    }
    const spanName = redactSecrets(span.name);
    if (spanName !== span.name) span.updateName(spanName);
  }

  onEnd(): void {}

  forceFlush(): Promise<void> {
    return Promise.resolve();
  }

  shutdown(): Promise<void> {
    return Promise.resolve();
  }
}

/** The value an attribute is exported with; the same value (by identity) when nothing in it is secret. */
export function redactAttribute(name: string, value: AttributeValue): AttributeValue {
  const header = HEADER_ATTRIBUTE.exec(name);
  if (header && isSecretName(header[1]!)) return REDACTED;
  if (typeof value === 'string') return (URL_ATTRIBUTES[name] ?? redactSecrets)(value);
  if (Array.isArray(value) && value.some((item) => typeof item === 'string' && redactSecrets(item) !== item))
    return (value as Array<string | null | undefined>).map((item) =>
      typeof item === 'string' ? redactSecrets(item) : item,
    ) as AttributeValue;
  return value;
}
