import Fastify from 'fastify';
import { isCountedAlready, sendCounted } from './counted-requests.js';

describe('requests counted before they were sent', () => {
  it('marks an in-process request sent through sendCounted, through Fastify and its async hooks', async () => {
    const fastify = Fastify();
    fastify.addHook('onRequest', async () => {
      await new Promise((resolve) => setImmediate(resolve));
    });
    fastify.get('/counted', async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      return { counted: isCountedAlready() };
    });
    fastify.post('/counted', async () => ({ counted: isCountedAlready() }));
    try {
      // fastify.inject answers a thenable that starts the request when awaited
      const marked = await sendCounted(() => fastify.inject({ method: 'GET', url: '/counted' }));
      expect(marked.json()).toEqual({ counted: true });
      const unmarked = await fastify.inject({ method: 'GET', url: '/counted' });
      expect(unmarked.json()).toEqual({ counted: false });
      // a body goes through Fastify's content-type parser, which runs in an async resource of its own
      const withBody = await sendCounted(() =>
        fastify.inject({
          method: 'POST',
          url: '/counted',
          payload: { a: 1 },
          headers: { 'content-type': 'application/json' },
        }),
      );
      expect(withBody.json()).toEqual({ counted: true });
    } finally {
      await fastify.close();
    }
  });

  it('marks nothing outside it', async () => {
    expect(isCountedAlready()).toBe(false);
    await expect(sendCounted(async () => isCountedAlready())).resolves.toBe(true);
    expect(isCountedAlready()).toBe(false);
  });
});
