// Over real loopback HTTP: what the crawler's fetch connects to.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { boardFetch } from './board-fetch.js';

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jobs":[]}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

describe('boardFetch', () => {
  it('reads a loopback board where private addresses are allowed (npm run up, npm test)', async () => {
    const fetchBoard = boardFetch(true);
    for (const host of ['127.0.0.1', 'localhost']) {
      const res = await fetchBoard(`http://${host}:${port}/v1/boards/acme/jobs`);
      expect([host, res.status, await res.text()]).toEqual([host, 200, '{"jobs":[]}']);
    }
  });

  it('refuses a loopback or private address, written or resolved, where they are not', async () => {
    const fetchBoard = boardFetch(false);
    await expect(fetchBoard(`http://127.0.0.1:${port}/v1/boards/acme/jobs`)).rejects.toThrow(/not a public address/);
    await expect(fetchBoard('http://10.0.0.7/v1/boards/acme/jobs')).rejects.toThrow(/not a public address/);
    // a name whose answer is loopback: refused at the connection's own lookup
    await expect(fetchBoard(`http://localhost:${port}/v1/boards/acme/jobs`)).rejects.toThrow();
  });
});
