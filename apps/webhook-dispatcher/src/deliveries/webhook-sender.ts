import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { WEBHOOK_RESPONSE_DEADLINE_MS } from '@jobs/contracts';
import { classifyAddress, hostOf, safeLookup, UnsafeWebhookTargetError } from '@jobs/webhook-targets';
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
}

/**
 * One webhook POST: the stored body bytes, `Content-Type: application/json` and the signature;
 * any 2xx within the deadline (10 s) is a success; another status, the deadline, a connection
 * error or a redirect (never followed) is a failure; a target that is or resolves to a
 * non-public address while WEBHOOK_ALLOW_PRIVATE is false is refused without connecting.
 */
export async function postWebhook(post: WebhookPost, options: SenderOptions): Promise<AttemptOutcome> {
  const deadlineMs = options.deadlineMs ?? WEBHOOK_RESPONSE_DEADLINE_MS;
  let url: URL;
  try {
    url = new URL(post.url);
  } catch {
    return { kind: 'refused', error: 'not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { kind: 'refused', error: `scheme ${url.protocol} cannot receive webhooks` };
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host) && classifyAddress(host) !== 'public') {
    return { kind: 'refused', error: `${host} is a ${classifyAddress(host).replace('_', '-')} address (WEBHOOK_ALLOW_PRIVATE is false)` };
  }
  const payload = Buffer.from(post.body, 'utf8');
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise<AttemptOutcome>((resolve) => {
    let settled = false;
    const settle = (outcome: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const req = send(
      url,
      {
        method: 'POST',
        // A fresh connection per attempt: the address is checked by the lookup of this very connection.
        agent: false,
        lookup: safeLookup(options.allowPrivate) as never,
        headers: {
          'content-type': 'application/json',
          'content-length': String(payload.length),
          'service-signature': post.signature,
          'user-agent': 'jobdata-webhooks/1',
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        settle(status >= 200 && status < 300 ? { kind: 'succeeded', statusCode: status } : { kind: 'failed', statusCode: status, error: null });
        // The answer is decided by the status; the body is read and dropped within the deadline.
        res.resume();
        res.on('end', () => {
          clearTimeout(timer);
          req.destroy();
        });
      },
    );
    const timer = setTimeout(() => {
      settle({ kind: 'failed', statusCode: null, error: `no answer within ${deadlineMs} ms` });
      req.destroy();
    }, deadlineMs);
    req.on('error', (error: Error & { code?: string }) => {
      clearTimeout(timer);
      if (error instanceof UnsafeWebhookTargetError) settle({ kind: 'refused', error: `${error.message} (WEBHOOK_ALLOW_PRIVATE is false)` });
      else settle({ kind: 'failed', statusCode: null, error: `connection failed: ${error.code ?? error.message}` });
    });
    req.on('close', () => clearTimeout(timer));
    req.end(payload);
  });
}
