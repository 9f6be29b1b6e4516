/**
 * A real webhook receiver for e2e tests: an HTTP server on 127.0.0.1 (WEBHOOK_ALLOW_PRIVATE is
 * true in the test stacks) that records every request and answers per path as told.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { EventSchema, type Event, type Job } from '@jobs/contracts';

export interface Arrival {
  path: string;
  headers: IncomingHttpHeaders;
  raw: string;
  at: number;
}

/** What the receiver does with the n-th request (1-based) to a path: answer a status, or never answer. */
export type Behaviour = (n: number) => number | 'hang';

export class Receiver {
  readonly arrivals: Arrival[] = [];
  private readonly behaviours = new Map<string, Behaviour>();
  private readonly hanging = new Set<ServerResponse>();
  private server?: Server;
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const path = req.url ?? '/';
        this.arrivals.push({ path, headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), at: Date.now() });
        const n = this.arrivals.filter((a) => a.path === path).length;
        const answer = (this.behaviours.get(path) ?? (() => 200))(n);
        if (answer === 'hang') {
          this.hanging.add(res);
          res.on('close', () => this.hanging.delete(res));
          return;
        }
        res.writeHead(answer, { 'content-type': 'text/plain' }).end(String(answer));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A fresh endpoint URL on this receiver with its behaviour. */
  endpoint(behaviour: Behaviour = () => 200): string {
    const path = `/hooks/${randomBytes(6).toString('hex')}`;
    this.behaviours.set(path, behaviour);
    return `${this.base}${path}`;
  }

  at(url: string): Arrival[] {
    const path = new URL(url).pathname;
    return this.arrivals.filter((a) => a.path === path);
  }

  /** Whether a request to this URL is still held open by a 'hang' behaviour. */
  isHanging(url: string): boolean {
    const path = new URL(url).pathname;
    return [...this.hanging].some((res) => (res.req.url ?? '') === path);
  }

  async waitFor(url: string, count: number, timeoutMs = 30_000): Promise<Arrival[]> {
    return eventually(
      () => {
        const seen = this.at(url);
        return seen.length >= count ? seen : undefined;
      },
      timeoutMs,
      `${count} request(s) at ${url} (saw ${this.at(url).length})`,
    );
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** Polls (every `everyMs`) until `probe` returns a value, or fails after the deadline. */
export async function eventually<T>(
  probe: () => T | undefined | Promise<T | undefined>,
  timeoutMs: number,
  what: string,
  everyMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * interface.md Delivery 2-3, as a receiver checks a `Service-Signature` header: split on ",",
 * each part on its first "=", HMAC-SHA256 of `t.raw` with the endpoint's secret, hex compared in
 * constant time.
 */
export function signatureValid(header: string | string[] | undefined, raw: string, secret: string): boolean {
  if (typeof header !== 'string') return false;
  const parts = header
    .split(',')
    .map((part) => [part.slice(0, part.indexOf('=')), part.slice(part.indexOf('=') + 1)] as const);
  const t = parts.find(([name]) => name === 't')?.[1];
  // several v1 during a secret rotation's overlap: any one that matches
  const given = parts.filter(([name]) => name === 'v1').map(([, value]) => value);
  if (!t || given.length === 0) return false;
  const expected = createHmac('sha256', secret).update(`${t}.${raw}`).digest('hex');
  return given.some((v1) => expected.length === v1.length && timingSafeEqual(Buffer.from(expected), Buffer.from(v1)));
}

/** The events a receiver got at `url`, parsed, in arrival order. */
export function eventsAt(receiver: Receiver, url: string): Event[] {
  return receiver.at(url).map((a) => EventSchema.parse(JSON.parse(a.raw)));
}

/** The job an event carries (`job.*` events). */
export const jobOf = (event: Event): Job => (event.data as { job: Job }).job;
