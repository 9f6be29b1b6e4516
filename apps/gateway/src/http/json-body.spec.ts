import Fastify from 'fastify';
import { charsetOf, installJsonBodyParser, jsonNestsDeeperThan, MAX_JSON_DEPTH } from './json-body.js';

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

describe('charsetOf', () => {
  it('reads the charset parameter, quoted or not, in any case', () => {
    expect(charsetOf('application/json')).toBeUndefined();
    expect(charsetOf(undefined)).toBeUndefined();
    expect(charsetOf('application/json; charset=UTF-8')).toBe('utf-8');
    expect(charsetOf('application/json;Charset="utf-16"')).toBe('utf-16');
    expect(charsetOf('application/json; profile=x; charset=latin1')).toBe('latin1');
  });
});

describe('installJsonBodyParser', () => {
  async function post(
    payload: string,
    emptyIsNoBody = false,
    { contentType = 'application/json', url = '/' }: { contentType?: string; url?: string } = {},
  ) {
    const app = Fastify();
    installJsonBodyParser(app, { emptyIsNoBody, arrayBodyPaths: ['/batch'] });
    app.setErrorHandler((error: Error & { param?: unknown; extras?: { param?: string } }, _req, reply) => {
      void reply.status(400).send({ message: error.message, param: error.extras?.param });
    });
    app.post('/', async (request) => ({ body: request.body ?? null }));
    app.post('/batch', async (request) => ({ body: request.body ?? null }));
    const res = await app.inject({ method: 'POST', url, payload, headers: { 'content-type': contentType } });
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

  it('takes an object; null, a number, a string or a list only where a route takes a list', async () => {
    const notAnObject = { status: 400, body: { message: 'The request body must be a JSON object.', param: 'body' } };
    for (const body of ['null', '3', '"x"', 'true', '[{"a":1}]']) expect(await post(body)).toEqual(notAnObject);
    expect(await post('[{"a":1}]', false, { url: '/batch' })).toEqual({ status: 200, body: { body: [{ a: 1 }] } });
    expect(await post('null', false, { url: '/batch?x=1' })).toEqual(notAnObject);
  });

  it('refuses the NUL character anywhere in the body, naming where; a backslash text is not one', async () => {
    const refused = (param: string) => ({
      status: 400,
      body: { message: 'Text may not contain the NUL character (\\u0000).', param },
    });
    expect(await post('{"filters":{"job_family_or":["eng","x\\u0000"]}}')).toEqual(refused('filters.job_family_or[1]'));
    expect(await post('{"label":"\\u0000"}')).toEqual(refused('label'));
    expect(await post('{"a\\u0000":1}')).toEqual(refused('body'));
    expect(await post('[{"id":1,"params":{"q":"\\u0000"}}]', false, { url: '/batch' })).toEqual(
      refused('[0].params.q'),
    );
    // an escaped backslash followed by the letters u0000 is six characters of text, no NUL
    expect(await post('{"label":"\\\\u0000"}')).toEqual({ status: 200, body: { body: { label: '\\u0000' } } });
  });

  it('reads UTF-8 only: another charset is refused, not misread', async () => {
    expect(await post('{"a":"é"}', false, { contentType: 'application/json; charset=utf-8' })).toEqual({
      status: 200,
      body: { body: { a: 'é' } },
    });
    expect(await post('{"a":1}', false, { contentType: 'application/json; charset=utf-16' })).toEqual({
      status: 400,
      body: {
        message: 'Send JSON as UTF-8: `Content-Type: application/json` (this request said charset=utf-16).',
        param: 'body',
      },
    });
  });
});
