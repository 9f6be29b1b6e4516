import Fastify from 'fastify';
import { installJsonBodyParser, jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-body.js';

const nested = (depth: number, open = '[', close = ']') => open.repeat(depth) + close.repeat(depth);

describe('jsonNestsDeeperThan', () => {
  it('counts objects and arrays together, up to the bound and past it', () => {
    expect(jsonNestsDeeperThan(nested(3), 3)).toBe(false);
    expect(jsonNestsDeeperThan(nested(4), 3)).toBe(true);
    expect(jsonNestsDeeperThan('{"a":[{"b":[1]}]}', 4)).toBe(false);
    expect(jsonNestsDeeperThan('{"a":[{"b":[[1]]}]}', 4)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '[[[[[[{{{{' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: 'say \\"[[[[" here' }), 1)).toBe(false);
    expect(jsonNestsDeeperThan(JSON.stringify({ a: '\\' }) + '[[', 1)).toBe(true);
  });

  it('walks a million levels without recursing', () => {
    expect(jsonNestsDeeperThan(nested(1_000_000), MAX_JSON_DEPTH)).toBe(true);
  });
});

describe('installJsonBodyParser', () => {
  async function post(payload: string, emptyIsNoBody = false) {
    const app = Fastify();
    installJsonBodyParser(app, { emptyIsNoBody });
    app.setErrorHandler((error: Error & { param?: unknown; extras?: { param?: string } }, _req, reply) => {
      void reply.status(400).send({ message: error.message, param: error.extras?.param });
    });
    app.post('/', async (request) => ({ body: request.body ?? null }));
    const res = await app.inject({
      method: 'POST',
      url: '/',
      payload,
      headers: { 'content-type': 'application/json' },
    });
    await app.close();
    return { status: res.statusCode, body: res.json() as Record<string, unknown> };
  }

  it('parses a body within the bound', async () => {
    expect(await post('{"a":{"b":[1,2]}}')).toEqual({ status: 200, body: { body: { a: { b: [1, 2] } } } });
  });

  it('refuses a body nested past the bound before parsing it', async () => {
    expect(await post(nested(100_000, '{"a":', '}').replace(/\{"a":\}/, '{"a":1}'))).toEqual({
      status: 400,
      body: { message: `The request body nests deeper than ${MAX_JSON_DEPTH} levels.`, param: 'body' },
    });
  });

  it('refuses prototype poisoning and malformed JSON', async () => {
    expect((await post('{"__proto__":{"admin":true}}')).status).toBe(400);
    expect((await post('{"constructor":{"prototype":{"admin":true}}}')).status).toBe(400);
    expect(await post('{"a":')).toEqual({
      status: 400,
      body: { message: 'The request body is not valid JSON.', param: 'body' },
    });
  });

  it('takes an empty body as none only where asked', async () => {
    expect(await post('', true)).toEqual({ status: 200, body: { body: null } });
    expect((await post('')).status).toBe(400);
  });
});
