import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebhookSender } from './webhook-sender.js';

interface Seen {
  headers: IncomingMessage['headers'];
  body: string;
}

describe('WebhookSender', () => {
  let server: Server;
  let connections = 0;
  const senders: WebhookSender[] = [];
  let base: string;
  const seen: Seen[] = [];
  let handler: (res: ServerResponse) => void = (res) => res.writeHead(204).end();

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
        handler(res);
      });
    });
    server.on('connection', () => connections++);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(senders.map((sender) => sender.close()));
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  beforeEach(() => {
    seen.length = 0;
  });

  const senderFor = (allowPrivate: boolean, deadlineMs?: number) => {
    const sender = new WebhookSender({ allowPrivate, ...(deadlineMs ? { deadlineMs } : {}) });
    senders.push(sender);
    return sender;
  };
  const post = (url: string, allowPrivate = true, deadlineMs?: number) =>
    senderFor(allowPrivate, deadlineMs).post({
      url,
      body: '{"id":"evt_1","n":"é"}',
      signature: 't=1,v1=abc',
      eventId: 'evt_1',
    });

  it('POSTs the exact body bytes with Content-Type and the signature; a 2xx is a success', async () => {
    handler = (res) => res.writeHead(202).end('accepted');
    await expect(post(`${base}/hook`)).resolves.toEqual({ kind: 'succeeded', statusCode: 202 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.body).toBe('{"id":"evt_1","n":"é"}');
    expect(seen[0]!.headers['content-type']).toBe('application/json');
    expect(seen[0]!.headers['service-signature']).toBe('t=1,v1=abc');
    expect(seen[0]!.headers['content-length']).toBe(String(Buffer.byteLength('{"id":"evt_1","n":"é"}')));
  });

  it('keeps connections to an origin open: 20 attempts one after another use at most two', async () => {
    handler = (res) => res.writeHead(200).end('ok');
    const sender = senderFor(true);
    const before = connections;
    for (let i = 0; i < 20; i++)
      await expect(
        sender.post({ url: `${base}/hook/${i}`, body: '{}', signature: 't=1,v1=abc', eventId: `evt_${i}` }),
      ).resolves.toEqual({ kind: 'succeeded', statusCode: 200 });
    expect(seen).toHaveLength(20);
    // undici may open a second connection while the first answer is still being read; never one per attempt.
    expect(connections - before).toBeLessThanOrEqual(2);
  });

  it.each([301, 400, 410, 500, 503])('a %s is a failure with its status', async (status) => {
    handler = (res) => res.writeHead(status, { location: 'http://elsewhere.example/' }).end();
    await expect(post(`${base}/hook`)).resolves.toEqual({ kind: 'failed', statusCode: status, error: null });
  });

  it('no answer within the deadline is a failure', async () => {
    handler = () => undefined; // never answers
    const outcome = await post(`${base}/hook`, true, 200);
    expect(outcome).toEqual({ kind: 'failed', statusCode: null, error: 'no answer within 200 ms' });
  });

  it('a connection error is a failure', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const outcome = await post(`http://127.0.0.1:${port}/hook`);
    expect(outcome).toMatchObject({ kind: 'failed', statusCode: null });
    expect(outcome.kind === 'failed' && outcome.error).toMatch(/^connection failed: ECONNREFUSED/);
  });

  it('refuses loopback and private targets when WEBHOOK_ALLOW_PRIVATE is false, without connecting', async () => {
    handler = (res) => res.writeHead(200).end();
    const literal = await post(`${base}/hook`, false);
    expect(literal).toMatchObject({ kind: 'refused' });
    const port = new URL(base).port;
    const byName = await post(`http://localhost:${port}/hook`, false);
    expect(byName).toMatchObject({ kind: 'refused' });
    expect((await post('http://[::1]:1/hook', false)).kind).toBe('refused');
    expect((await post('http://10.1.2.3/hook', false)).kind).toBe('refused');
    expect(seen).toHaveLength(0);
  });

  it('refuses a URL that is not http(s)', async () => {
    expect((await post('ftp://example.com/hook')).kind).toBe('refused');
    expect((await post('not a url')).kind).toBe('refused');
  });
});
