import { connect } from 'node:net';
import { ErrorEnvelopeSchema } from '@jobs/contracts';
import { api, createAccount, stack } from '@jobs/e2e-support';

/**
 * Bodies are read exactly (docs/security.md "Request bodies"): what the security review sent,
 * each answered in the error envelope and charging nothing. A body that is not an object, a body
 * without a JSON content type, a charset other than UTF-8, headers past the bound.
 */
async function raw(path: string, key: string, body: string, contentType?: string) {
  const res = await fetch(`${stack.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, ...(contentType === undefined ? {} : { 'content-type': contentType }) },
    body,
  });
  const text = await res.text();
  return {
    status: res.status,
    requestId: res.headers.get('x-request-id'),
    charged: res.headers.get('x-credits-charged'),
    error: ErrorEnvelopeSchema.parse(JSON.parse(text)).error,
  };
}

async function credits(key: string): Promise<number> {
  const res = await api('/v1/account', { key });
  return (res.body as { credits_remaining: number }).credits_remaining;
}

describe('odd bodies', () => {
  let key: string;

  beforeAll(async () => {
    key = (await createAccount({ plan: 'pro', credits: 1_000 })).live_key;
  });

  it('refuses a JSON body that is not an object on every body route, charging nothing', async () => {
    for (const path of ['/v1/jobs/search', '/v1/searches', '/v1/watches', '/v1/webhooks/replay'])
      for (const body of ['null', '25', '"search"', 'true', '[]', '[{"limit":1}]']) {
        const res = await raw(path, key, body, 'application/json');
        expect({ path, body, status: res.status, code: res.error.code, param: res.error.param }).toEqual({
          path,
          body,
          status: 400,
          code: 'invalid_request',
          param: 'body',
        });
        expect(res.error.message).toBe('The request body must be a JSON object.');
        expect(res.error.request_id).toBe(res.requestId);
      }
    expect(await credits(key)).toBe(1_000);
  });

  it('tells a body sent without a JSON content type to send one, whatever curl -d chose', async () => {
    for (const contentType of [undefined, 'application/x-www-form-urlencoded', 'text/plain']) {
      const res = await raw('/v1/jobs/search', key, '{"limit":1,"dry_run":true}', contentType);
      expect({ contentType, status: res.status, code: res.error.code }).toEqual({
        contentType,
        status: 400,
        code: 'invalid_request',
      });
      expect(res.error.message).toContain('Content-Type: application/json');
    }
  });

  it('refuses a charset other than UTF-8 instead of reading it as UTF-8', async () => {
    const utf16 = await raw('/v1/jobs/search', key, '{"limit":1,"dry_run":true}', 'application/json; charset=utf-16');
    expect([utf16.status, utf16.error.code, utf16.error.param]).toEqual([400, 'invalid_request', 'body']);
    expect(utf16.error.message).toContain('UTF-8');
    const utf8 = await fetch(`${stack.baseUrl}/v1/jobs/search`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json; charset=UTF-8' },
      body: '{"limit":1,"dry_run":true}',
    });
    expect(utf8.status).toBe(200);
  });

  it('answers headers past the bound in the envelope, with the request id it sends', async () => {
    const { port, hostname } = new URL(stack.baseUrl);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), hostname, () =>
        socket.end(`GET /v1/account?q=${'x'.repeat(20_000)} HTTP/1.1\r\nhost: ${hostname}\r\n\r\n`),
      );
      const chunks: Buffer[] = [];
      socket.on('data', (c: Buffer) => chunks.push(c));
      socket.on('error', reject);
      socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
    });
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    const error = ErrorEnvelopeSchema.parse(JSON.parse(body)).error;
    expect(error.code).toBe('invalid_request');
    expect(error.request_id).toBe(/^x-request-id: (\S+)$/im.exec(head)?.[1]);
  });

  it('reads a path parameter up to 2,048 characters, and answers a longer one in the envelope', async () => {
    // read, and refused as no job id can be that long
    const long = await api(`/v1/jobs/job_${'x'.repeat(1_000)}`, { key });
    expect(long.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(long.body).error).toMatchObject({
      param: 'id',
      message: 'id: Expected an id: job_ then 1 to 128 letters, digits, _ or -',
    });
    const tooLong = await api(`/v1/jobs/job_${'x'.repeat(3_000)}`, { key });
    expect(tooLong.status).toBe(400);
    expect(ErrorEnvelopeSchema.parse(tooLong.body).error.message).toBe('A path parameter is too long.');
  });
});

describe('a dry run with a cursor', () => {
  it('is refused naming dry_run, never a charged page: the balance and the ledger stay', async () => {
    const account = await createAccount({ plan: 'pro', credits: 50 });
    const body = { filters: { title_or: ['engineer'] }, waterfall: { strategy: 'max_coverage' }, limit: 3 };
    const first = await api('/v1/jobs/search', { key: account.live_key, body });
    expect(first.status).toBe(200);
    const cursor = (first.body as { next_cursor: string | null }).next_cursor;
    expect(cursor).toMatch(/^cur_/);
    const before = await credits(account.live_key);
    const ledger = await api('/v1/billing/ledger', { key: account.live_key });

    const dry = await api('/v1/jobs/search', { key: account.live_key, body: { ...body, cursor, dry_run: true } });
    expect(dry.status).toBe(400);
    expect(dry.body).toMatchObject({ error: { code: 'invalid_request', param: 'dry_run' } });
    expect(dry.headers.get('x-credits-charged')).toBeNull();
    expect(await credits(account.live_key)).toBe(before);
    expect((await api('/v1/billing/ledger', { key: account.live_key })).body).toEqual(ledger.body);

    // the same cursor without dry_run still serves its page
    const next = await api('/v1/jobs/search', { key: account.live_key, body: { ...body, cursor } });
    expect(next.status).toBe(200);
  });
});
