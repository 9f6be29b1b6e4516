import Fastify, { type FastifyInstance } from 'fastify';
import { connect, type AddressInfo } from 'node:net';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { clientErrorHandler } from './router-errors.js';

/** Sends raw bytes and reads everything until the server ends the connection. */
function exchange(port: number, raw: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.end(raw));
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', reject);
    socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

describe('clientErrorHandler', () => {
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    app = Fastify({
      clientErrorHandler: clientErrorHandler({ publicBaseUrl: 'https://api.test', pricingUrl: 'https://p.test' }),
    });
    app.get('/', async () => ({ ok: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as AddressInfo).port;
  });
  afterAll(() => app.close());

  function parse(answer: string) {
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    const requestId = /^x-request-id: (\S+)$/im.exec(head)?.[1];
    return { statusLine: head.split('\r\n')[0], requestId, envelope: ErrorEnvelopeSchema.parse(JSON.parse(body)) };
  }

  it('answers headers past the bound with 400 in the public envelope', async () => {
    const answer = parse(await exchange(port, `GET /?q=${'x'.repeat(20_000)} HTTP/1.1\r\nhost: a\r\n\r\n`));
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.envelope.error).toMatchObject({ code: 'invalid_request', param: 'headers' });
    expect(answer.envelope.error.request_id).toBe(answer.requestId);
  });

  it('answers bytes that are not HTTP with 400 in the public envelope', async () => {
    const answer = parse(await exchange(port, 'HELLO THERE\r\n\r\n'));
    expect(answer.statusLine).toBe('HTTP/1.1 400 Bad Request');
    expect(answer.envelope.error.code).toBe('invalid_request');
  });
});
