/** A scripted fetch for unit tests: answers (or fails) in turn, and records every request. */
import type { FetchInit, FetchLike, FetchResponseLike } from './transport.js';

export interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
}

export type Scripted = { status: number; body?: unknown; headers?: Record<string, string> } | { fail: Error };

export function answer(status: number, body?: unknown, headers: Record<string, string> = {}): Scripted {
  return { status, body, headers };
}

export function envelope(
  status: number,
  code: string,
  type: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Scripted {
  return answer(
    status,
    {
      error: {
        type,
        code,
        message: `${code} happened`,
        doc_url: `http://127.0.0.1:8080/docs/errors#${code}`,
        request_id: 'req_err1',
        ...extra,
      },
    },
    { 'x-request-id': 'req_err1', ...headers },
  );
}

export function responseOf(status: number, body: unknown, headers: Record<string, string>): FetchResponseLike {
  const lower = new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return {
    status,
    headers: { get: (name: string) => lower.get(name.toLowerCase()) ?? null },
    text: async () => (body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

export class FakeFetch {
  readonly sent: Sent[] = [];
  private readonly script: Scripted[];

  constructor(
    script: Scripted[] = [],
    /** Answers once the script is used up. */
    private readonly fallback: (sent: Sent) => Scripted = () => answer(200, {}),
  ) {
    this.script = [...script];
  }

  readonly fetch: FetchLike = async (url: string, init: FetchInit) => {
    const sent: Sent = {
      url,
      method: init.method,
      headers: init.headers,
      body: init.body === undefined ? undefined : JSON.parse(init.body),
    };
    this.sent.push(sent);
    const next = this.script.shift() ?? this.fallback(sent);
    if ('fail' in next) throw next.fail;
    return responseOf(next.status, next.body, next.headers ?? {});
  };
}

/** A sleep that records what it was asked to wait and returns at once. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = [];
  return { waits, sleep: async (ms: number) => void waits.push(ms) };
}
