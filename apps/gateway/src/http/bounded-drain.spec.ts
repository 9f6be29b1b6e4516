import Fastify, { type FastifyInstance } from 'fastify';
import { Agent, request } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { installBoundedDrain, REFUSED_BODY_DRAIN_MS } from './bounded-drain.js';

interface Answer {
  status: number;
  connection: string | undefined;
  localPort: number | undefined;
}

/** POSTs `size` bytes in 64 KB writes, as a client streaming a large body does. */
function post(url: string, size: number, agent: Agent | false = false, fill = 0x20): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': String(size) } },
      (res) => {
        res.resume();
        const localPort = res.socket.localPort;
        res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, localPort }));
      },
    );
    req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'EPIPE' ? undefined : reject(error)));
    const chunk = Buffer.alloc(Math.min(size, 64 * 1024), fill);
    let sent = 0;
    const writeMore = (): void => {
      while (sent < size) {
        const n = Math.min(chunk.length, size - sent);
        sent += n;
        if (!req.write(n === chunk.length ? chunk : chunk.subarray(0, n))) {
          req.once('drain', writeMore);
          return;
        }
      }
      req.end();
    };
    writeMore();
  });
}

/** A server refusing bodies over 1 KB, draining the rest of a refused body for at most `drainMs`. */
async function refusingServer(drainMs: number): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify({ bodyLimit: 1024 });
  installBoundedDrain(app, drainMs);
  app.post('/', async () => ({ ok: true }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/` };
}

describe('installBoundedDrain', () => {
  // The production bound: the bodies these clients send must arrive within it however loaded the
  // machine is (client and server share this process), or the drain is cut and the test measures
  // the machine's speed instead of the drain.
  let app: FastifyInstance;
  let url: string;
  // A short bound, for the client that never finishes its body.
  let impatient: { app: FastifyInstance; url: string };

  beforeAll(async () => {
    ({ app, url } = await refusingServer(REFUSED_BODY_DRAIN_MS));
    impatient = await refusingServer(300);
  });
  afterAll(async () => {
    await app.close();
    await impatient.app.close();
  });

  it('answers every oversized body so the client reads it, never a reset', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 40; i++) answers.push(await post(url, 2 * 1024 * 1024));
    expect(answers.filter((a) => a.status === 413)).toHaveLength(40);
    expect(answers.filter((a) => a.connection === 'close')).toHaveLength(0);
  });

  it('answers a client that asked to close and reads only once its body is out, then closes cleanly', async () => {
    const { port } = app.server.address() as AddressInfo;
    const size = 2 * 1024 * 1024;
    const answers = [];
    for (let i = 0; i < 5; i++)
      answers.push(
        await new Promise<{ answer: string; reset: boolean }>((resolve) => {
          const socket = connect(port, '127.0.0.1');
          let answer = '';
          let reset = false;
          // the answer waits unread in the socket while the body goes out: a reset would discard it
          socket.pause();
          socket.on('data', (d: Buffer) => (answer += d.toString('latin1')));
          socket.on('error', () => (reset = true));
          socket.on('close', () => resolve({ answer: answer.split('\r\n', 1)[0]!, reset }));
          socket.write(
            'POST / HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\nconnection: close\r\n' +
              `content-length: ${size}\r\n\r\n`,
          );
          const chunk = Buffer.alloc(64 * 1024, 0x20);
          let sent = 0;
          const more = (): void => {
            if (sent >= size) {
              setTimeout(() => socket.resume(), 50);
              return;
            }
            sent += chunk.length;
            socket.write(chunk, () => setTimeout(more, 2));
          };
          more();
        }),
      );
    expect(answers).toEqual(
      Array.from({ length: 5 }, () => ({ answer: 'HTTP/1.1 413 Payload Too Large', reset: false })),
    );
  });

  it('keeps the connection usable once the refused body has been read and dropped', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const refused = await post(url, 200_000, agent);
    const next = await post(url, 1, agent, 0x30); // the body `0`: JSON, no object, but read whole
    agent.destroy();
    expect([refused.status, next.status]).toEqual([413, 200]);
    expect(next.localPort).toBe(refused.localPort);
  });

  it('leaves a request made in process alone: it has no connection to drain or close', async () => {
    const inProcess = Fastify();
    installBoundedDrain(inProcess, 20);
    // refused before its body is read, as a rate-limited call is: the body never ends
    inProcess.addHook('onRequest', async (_request, reply) => reply.code(429).send({ refused: true }));
    inProcess.post('/', async () => ({ ok: true }));
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const answer = await inProcess.inject({ method: 'POST', url: '/', payload: { a: 1 } });
      await new Promise((resolve) => setTimeout(resolve, 100)); // past the drain bound
      expect(answer.statusCode).toBe(429);
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
      await inProcess.close();
    }
  });

  it('closes a connection whose body is still arriving after the bound', async () => {
    const outcome = await new Promise<{ status: number; closed: boolean }>((resolve) => {
      let status = 0;
      const req = request(impatient.url, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      });
      req.on('response', (res) => {
        status = res.statusCode ?? 0;
        res.resume();
      });
      const trickle = setInterval(() => req.write(Buffer.alloc(2048, 0x20)), 20);
      req.on('error', () => undefined);
      req.on('close', () => {
        clearInterval(trickle);
        resolve({ status, closed: true });
      });
    });
    expect(outcome).toEqual({ status: 413, closed: true });
  });
});
