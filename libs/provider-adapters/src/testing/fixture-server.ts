import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: URL;
  body: unknown;
}

export interface FixtureServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** A parsed JSON fixture from `src/fixtures/` (untyped on purpose: specs poke at raw provider items). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function fixture<T = any>(name: string): T {
  return JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as T;
}

/** An answer with its own status (a `serveJson` answer is otherwise 200). */
export class WithStatus {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {}
}

/** A tiny local HTTP server answering every request with `respond(request)` as JSON; records the requests. */
export async function serveJson(respond: (request: RecordedRequest) => unknown): Promise<FixtureServer> {
  const requests: RecordedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: RecordedRequest = {
        method: req.method ?? 'GET',
        url: new URL(req.url ?? '/', 'http://localhost'),
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(request);
      const answer = respond(request);
      const [status, body] = answer instanceof WithStatus ? [answer.status, answer.body] : [200, answer];
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve, reject) => server.close((e) => (e ? reject(e) : resolve()))),
  };
}
