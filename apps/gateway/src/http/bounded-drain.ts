import type { FastifyInstance, FastifyRequest } from 'fastify';

/** How long the rest of a refused body may take to arrive before its connection is closed. */
export const REFUSED_BODY_DRAIN_MS = 5_000;

const draining = new WeakSet<FastifyRequest>();

/**
 * A body refused before it was read whole (past the size bound, or not JSON) is answered while the
 * client may still be sending it. Fastify closes such connections, and closing a socket with unread
 * bytes makes the kernel reset it: the client then sees a reset instead of the answer it had not
 * read yet. Here the connection stays open instead, and Node reads the rest of the body and drops
 * it (`IncomingMessage._dump`), so the client reads the answer and may even reuse the connection.
 * The drain is bounded in time: a body still arriving `drainMs` after the answer (an endless
 * stream, a client trickling bytes) loses its connection then.
 */
export function installBoundedDrain(fastify: FastifyInstance, drainMs = REFUSED_BODY_DRAIN_MS): void {
  fastify.addHook('onSend', async (request, reply, payload) => {
    if (!request.raw.complete && reply.getHeader('connection') === 'close') {
      reply.removeHeader('connection');
      draining.add(request);
    }
    return payload;
  });
  fastify.addHook('onResponse', async (request) => {
    if (!draining.has(request) || request.raw.complete) return;
    const socket = request.raw.socket;
    const cut = setTimeout(() => socket.destroy(), drainMs).unref();
    const done = () => clearTimeout(cut);
    request.raw.once('end', done);
    socket.once('close', done);
  });
}
