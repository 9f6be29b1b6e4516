import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Socket } from 'node:net';

/** How long the rest of a refused body may take to arrive before its connection is closed. */
export const REFUSED_BODY_DRAIN_MS = 5_000;

/** Requests answered before their body was read whole -> whether their client asked to close the connection. */
const draining = new WeakMap<FastifyRequest, boolean>();

/**
 * A body refused before it was read whole (past the size bound, or not JSON) is answered while the
 * client may still be sending it. Fastify closes such connections, and so does Node when the client
 * itself asked to (`Connection: close`, as a client without keep-alive does), and closing a socket
 * with unread bytes makes the kernel reset it: the client then sees a reset instead of the answer
 * it had not read yet. Here the connection stays open instead, and Node reads the rest of the body
 * and drops it (`IncomingMessage._dump`), so the client reads the answer; a client that asked to
 * close has the connection ended once its body is in, one that did not may reuse it. The drain is
 * bounded in time: a body still arriving `drainMs` after the answer (an endless stream, a client
 * trickling bytes) loses its connection then. A request made in process (`fastify.inject`, as the
 * MCP server's tool calls are) has no connection and no bytes on any wire: it is left alone.
 */
export function installBoundedDrain(fastify: FastifyInstance, drainMs = REFUSED_BODY_DRAIN_MS): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete && request.raw.socket instanceof Socket) {
      draining.set(request, !reply.raw.shouldKeepAlive);
      reply.removeHeader('connection');
      reply.raw.shouldKeepAlive = true;
    }
    return payload;
  });
  fastify.addHook('onResponse', async (request) => {
    const clientCloses = draining.get(request);
    if (clientCloses === undefined) return;
    const socket = request.raw.socket;
    const closeIfAsked = () => {
      if (clientCloses && !socket.destroyed) socket.end();
    };
    if (request.raw.complete) return closeIfAsked();
    const cut = setTimeout(() => socket.destroy(), drainMs).unref();
    request.raw.once('end', () => {
      clearTimeout(cut);
      closeIfAsked();
    });
    socket.once('close', () => clearTimeout(cut));
  });
}
