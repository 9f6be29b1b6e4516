// Shared by the admin API specs: one call to the admin port as any caller makes it, and the
// check of the public error envelope.
import { randomUUID } from 'node:crypto';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { stack } from './stack.js';

/** One call to the admin API; `token: null` sends none. */
export async function admin(
  method: string,
  path: string,
  init: { body?: unknown; rawBody?: string; token?: string | null } = {},
) {
  const token = init.token === undefined ? stack.adminToken : init.token;
  const res = await fetch(`${stack.adminUrl}/admin${path}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(init.body === undefined && init.rawBody === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: init.rawBody ?? (init.body === undefined ? undefined : JSON.stringify(init.body)),
  });
  const text = await res.text();
  return {
    status: res.status,
    headers: res.headers,
    body: text ? (JSON.parse(text) as Record<string, unknown>) : null,
  };
}

type Answer = Awaited<ReturnType<typeof admin>>;

/** The public error envelope, its request id equal to the X-Request-Id header. */
export function expectError(res: Answer, status: number, code: string, param?: string): void {
  expect({ status: res.status, code: (res.body?.['error'] as { code?: string } | undefined)?.code }).toEqual({
    status,
    code,
  });
  const envelope = ErrorEnvelopeSchema.parse(res.body);
  expect(envelope.error.request_id).toBe(res.headers.get('x-request-id'));
  if (param !== undefined) expect(envelope.error.param).toBe(param);
}

export async function eventually<T>(
  read: () => Promise<T>,
  accept: (value: T) => boolean,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export const unique = () => randomUUID().replace(/-/g, '').slice(0, 10);
