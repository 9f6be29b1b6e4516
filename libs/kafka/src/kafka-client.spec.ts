import { jest } from '@jest/globals';
import net from 'node:net';
import { noDelaySocketFactory } from './kafka-client.js';

describe('noDelaySocketFactory', () => {
  it('connects with Nagle off and keep-alive on, and calls back once connected', async () => {
    const server = net.createServer((peer) => peer.end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as net.AddressInfo;
    const noDelay = jest.spyOn(net.Socket.prototype, 'setNoDelay');
    const keepAlive = jest.spyOn(net.Socket.prototype, 'setKeepAlive');
    try {
      let socket!: net.Socket;
      await new Promise<void>((onConnect) => {
        socket = noDelaySocketFactory({ host: '127.0.0.1', port, ssl: undefined as never, onConnect });
      });
      expect(socket.remotePort).toBe(port);
      expect(noDelay.mock.contexts).toContain(socket);
      expect(noDelay.mock.calls[noDelay.mock.contexts.indexOf(socket)]).toEqual([true]);
      expect(keepAlive.mock.calls[keepAlive.mock.contexts.indexOf(socket)]).toEqual([true, 60_000]);
      socket.destroy();
    } finally {
      noDelay.mockRestore();
      keepAlive.mockRestore();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
