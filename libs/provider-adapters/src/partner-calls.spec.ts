import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getJson, getListingJson, postJson, ProviderResponseError } from './provider-adapter.js';
import { isTransient } from './resilient-adapter.js';

/** A partner API on loopback: /ok answers JSON (POST: the body back), /missing 404, /broken 503, /html not JSON. */
let server: Server;
let base: string;
const timers: NodeJS.Timeout[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const send = (status: number, text: string) => res.writeHead(status).end(text);
      if (req.url === '/ok') send(200, req.method === 'POST' ? body : JSON.stringify({ jobs: [1, 2] }));
      else if (req.url === '/missing') send(404, 'gone');
      else if (req.url === '/broken') send(503, 'later');
      else if (req.url === '/html') send(200, '<html>');
      else if (req.url === '/slow') timers.push(setTimeout(() => send(200, '{}'), 2_000));
      else send(500, '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const timer of timers) clearTimeout(timer);
  // the partners' pool keeps its connections alive: close them from this side
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const failureOf = (call: Promise<unknown>) =>
  call.then(
    () => null,
    (error: unknown) => error,
  );
const signal = () => AbortSignal.timeout(5_000);

describe('partner calls', () => {
  it('reads a JSON answer, by GET and by POST', async () => {
    await expect(getJson('provider_a', new URL('/ok', base), signal())).resolves.toEqual({ jobs: [1, 2] });
    await expect(postJson('provider_f', new URL('/ok', base), { page: 3 }, signal())).resolves.toEqual({ page: 3 });
  });

  it('answers null for a listing the provider no longer shows, and fails a search page that is missing', async () => {
    await expect(getListingJson('provider_e', new URL('/missing', base), signal())).resolves.toBeNull();
    const error = await failureOf(getJson('provider_a', new URL('/missing', base), signal()));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(isTransient(error)).toBe(false);
  });

  it('fails with the status for a 5xx (which may pass) and for a body that is not JSON (which will not)', async () => {
    const broken = await failureOf(getJson('provider_a', new URL('/broken', base), signal()));
    expect(broken).toMatchObject({ name: 'ProviderResponseError', status: 503 });
    expect(isTransient(broken)).toBe(true);
    const html = await failureOf(getJson('provider_a', new URL('/html', base), signal()));
    expect(html).toMatchObject({ status: 200, message: 'provider_a sent a body that is not JSON' });
    expect(isTransient(html)).toBe(false);
  });

  it('fails without a status when nothing answers (a network failure, which may pass)', async () => {
    const closed = new URL('http://127.0.0.1:1/ok');
    const error = await failureOf(getJson('provider_b', closed, signal()));
    expect(error).toMatchObject({ name: 'ProviderResponseError', status: null });
    expect(isTransient(error)).toBe(true);
  });

  it("leaves the deadline's abort as it is, so the caller reads it as a timeout", async () => {
    const deadline = AbortSignal.timeout(100);
    const error = await failureOf(getJson('provider_d', new URL('/slow', base), deadline));
    expect(deadline.aborted).toBe(true);
    expect(error).not.toBeInstanceOf(ProviderResponseError);
  });
});
