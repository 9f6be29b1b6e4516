import { isIP } from 'node:net';
import { context } from '@opentelemetry/api';
import { suppressTracing } from '@opentelemetry/core';
import { Agent, errors } from 'undici';
import { WEBHOOK_RESPONSE_DEADLINE_MS } from '@jobs/contracts';
import {
  classifyAddress,
  hostOf,
  safeLookup,
  UnsafeWebhookTargetError,
  type HostResolver,
} from '@jobs/webhook-targets';
import type { AttemptOutcome } from './delivery-store.js';

export interface WebhookPost {
  url: string;
  body: string;
  signature: string;
  eventId: string;
}

export interface SenderOptions {
  allowPrivate: boolean;
  deadlineMs?: number;
  /** Connections kept open to one origin (scheme, host and port) at most. */
  connectionsPerOrigin?: number;
  /**
   * Resolves host names for new connections (bounded, cached, off the thread pool); default: the process's default one.
   */
  resolver?: HostResolver;
}

/**
 * Webhook POSTs over keep-alive connections: one undici pool per origin (an Agent), so a busy
 * endpoint reuses its connections instead of paying a TCP (and TLS) handshake per attempt. Each
 * POST carries the stored body bytes, `Content-Type: application/json` and the signature; any 2xx
 * within the deadline (10 s) is a success; another status, the deadline, a connection error or a
 * redirect (never followed) is a failure; a target that is or resolves to a non-public address
 * while WEBHOOK_ALLOW_PRIVATE is false is refused without connecting. The address check sits in
 * each new connection's own DNS lookup (`safeLookup`), so a pooled connection only ever goes to an
 * address that passed it; that lookup resolves through the bounded, cached `HostResolver`, so a
 * slow DNS answer costs one connection its resolver timeout and never holds the thread pool.
 *
 * The POST makes no span and sends no `traceparent` of its own: the attempt's `webhook deliver` span
 * is its client span, and the customer's endpoint is outside the trust boundary, so our trace
 * context stays ours, as a caller's does not become ours at the public port.
 */
export class WebhookSender {
  private readonly agent: Agent;
  private readonly deadlineMs: number;

  constructor(private readonly options: SenderOptions) {
    this.deadlineMs = options.deadlineMs ?? WEBHOOK_RESPONSE_DEADLINE_MS;
    this.agent = new Agent({
      connections: options.connectionsPerOrigin ?? 32,
      connect: { lookup: safeLookup(options.allowPrivate, options.resolver) as never },
      // The deadline below bounds each attempt; these only keep undici's own timers from firing first.
      headersTimeout: this.deadlineMs + 1000,
      bodyTimeout: this.deadlineMs + 1000,
    });
  }

  async post(post: WebhookPost): Promise<AttemptOutcome> {
    let url: URL;
    try {
      url = new URL(post.url);
    } catch {
      return { kind: 'refused', error: 'not an absolute URL' };
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      return { kind: 'refused', error: `scheme ${url.protocol} cannot receive webhooks` };
    const host = hostOf(url);
    if (!this.options.allowPrivate && isIP(host) && classifyAddress(host) !== 'public') {
      return {
        kind: 'refused',
        error: `${host} is a ${classifyAddress(host).replace('_', '-')} address (WEBHOOK_ALLOW_PRIVATE is false)`,
      };
    }
    const payload = Buffer.from(post.body, 'utf8');
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), this.deadlineMs);
    try {
      const res = await context.with(suppressTracing(context.active()), () =>
        this.agent.request({
          origin: url.origin,
          path: `${url.pathname}${url.search}`,
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'content-length': String(payload.length),
            'service-signature': post.signature,
            'user-agent': 'jobdata-webhooks/1',
          },
          body: payload,
          signal: deadline.signal,
        }),
      );
      // The answer is decided by the status; the body is read and dropped (within the deadline) so the connection is
      // reused.
      await res.body.dump().catch(() => undefined);
      const status = res.statusCode;
      return status >= 200 && status < 300
        ? { kind: 'succeeded', statusCode: status }
        : { kind: 'failed', statusCode: status, error: null };
    } catch (error) {
      if (deadline.signal.aborted)
        return { kind: 'failed', statusCode: null, error: `no answer within ${this.deadlineMs} ms` };
      const cause = causeOf(error);
      if (cause instanceof UnsafeWebhookTargetError)
        return { kind: 'refused', error: `${cause.message} (WEBHOOK_ALLOW_PRIVATE is false)` };
      return { kind: 'failed', statusCode: null, error: `connection failed: ${cause.code ?? cause.message}` };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Closes the pooled connections (after the attempts under way). */
  async close(): Promise<void> {
    await this.agent.close();
  }
}

/** The error that explains a failed request: undici wraps some socket errors. */
function causeOf(error: unknown): Error & { code?: string } {
  let current = error as Error & { code?: string; cause?: unknown };
  while (current instanceof errors.UndiciError && current.cause instanceof Error)
    current = current.cause as Error & { code?: string; cause?: unknown };
  return current;
}
