import { createServer, type Server } from 'node:http';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { HostResolver, type DnsBackend } from './host-resolver.js';
import {
  checkWebhookUrl,
  safeLookup,
  UnsafeWebhookTargetError,
  WEBHOOK_URL_MAX_LENGTH,
  webhookUrlTooLong,
} from './webhook-url.js';

const resolvingTo = (addresses: string[]) => async () => addresses;
const refuse = { allowPrivate: false };

describe('checkWebhookUrl', () => {
  it('allows anything http(s) when private targets are allowed', async () => {
    await expect(checkWebhookUrl('http://127.0.0.1:9999/hook', { allowPrivate: true })).resolves.toEqual({ ok: true });
    await expect(checkWebhookUrl('http://localhost/hook', { allowPrivate: true })).resolves.toEqual({ ok: true });
  });

  it('refuses other schemes, relative and overlong URLs even when private targets are allowed', async () => {
    expect((await checkWebhookUrl('ftp://example.com/x', { allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl('/relative', { allowPrivate: true })).ok).toBe(false);
    expect((await checkWebhookUrl(`https://example.com/${'a'.repeat(2048)}`, { allowPrivate: true })).ok).toBe(false);
  });

  it('bounds a URL by its UTF-8 bytes, the size its signing secret is keyed by', async () => {
    const base = 'https://example.com/';
    const ascii = `${base}${'a'.repeat(WEBHOOK_URL_MAX_LENGTH - base.length)}`;
    expect(await checkWebhookUrl(ascii, { allowPrivate: true })).toEqual({ ok: true });
    // 700 characters, 2,100 bytes
    const cjk = `${base}${'求'.repeat(700)}`;
    expect(cjk.length).toBeLessThan(WEBHOOK_URL_MAX_LENGTH);
    expect(webhookUrlTooLong(cjk)).toBe(true);
    expect(await checkWebhookUrl(cjk, { allowPrivate: true })).toEqual({
      ok: false,
      reason: 'webhook_url: at most 2048 bytes (UTF-8).',
    });
  });

  it('refuses a URL with a user name or password: a delivery would drop them and be refused', async () => {
    for (const url of ['https://user:pass@hooks.example.com/h', 'https://user@hooks.example.com/h']) {
      const verdict = await checkWebhookUrl(url, { allowPrivate: true });
      expect(verdict).toMatchObject({
        ok: false,
        reason: expect.stringMatching(/^webhook_url: a user name or password/),
      });
    }
  });

  it.each([
    'http://127.0.0.1/hook',
    'http://[::1]:8080/hook',
    'http://[::ffff:127.0.0.1]/hook',
    'http://10.0.0.5/hook',
    'http://169.254.169.254/latest/meta-data',
    'http://[fd00::1]/hook',
    'http://[fe80::1]/hook',
    'http://0x7f.1/hook', // the URL parser normalizes it to 127.0.0.1
    'http://2130706433/hook', // 127.0.0.1 as one number
    'http://0/hook',
    'http://localhost:3000/hook',
    'http://api.localhost/hook',
  ])('refuses %s', async (url) => {
    const verdict = await checkWebhookUrl(url, { ...refuse, resolve: resolvingTo(['93.184.216.34']) });
    expect(verdict.ok).toBe(false);
    if (!verdict.ok) expect(verdict.reason).toMatch(/^webhook_url: /);
  });

  it('refuses a DNS name that resolves to a private address, even when it also has a public one', async () => {
    expect(
      (await checkWebhookUrl('https://internal.example.com/hook', { ...refuse, resolve: resolvingTo(['10.0.0.7']) }))
        .ok,
    ).toBe(false);
    expect(
      (
        await checkWebhookUrl('https://mixed.example.com/hook', {
          ...refuse,
          resolve: resolvingTo(['93.184.216.34', 'fd00::7']),
        })
      ).ok,
    ).toBe(false);
    expect(
      (await checkWebhookUrl('https://v6.example.com/hook', { ...refuse, resolve: resolvingTo(['::1']) })).ok,
    ).toBe(false);
  });

  it('accepts a DNS name whose every address is public', async () => {
    await expect(
      checkWebhookUrl('https://hooks.example.com/jobs', {
        ...refuse,
        resolve: resolvingTo(['93.184.216.34', '2606:2800:220:1::1']),
      }),
    ).resolves.toEqual({ ok: true });
    await expect(checkWebhookUrl('https://8.8.8.8/hook', refuse)).resolves.toEqual({ ok: true });
  });

  it('refuses a name that does not resolve', async () => {
    const failing = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    const verdict = await checkWebhookUrl('https://nowhere.invalid/hook', { ...refuse, resolve: failing });
    expect(verdict).toEqual({
      ok: false,
      reason: 'webhook_url: the host nowhere.invalid does not resolve.',
      unresolved: true,
    });
    expect((await checkWebhookUrl('https://empty.example/hook', { ...refuse, resolve: resolvingTo([]) })).ok).toBe(
      false,
    );
  });
});

describe('safeLookup', () => {
  let server: Server;
  let port: number;
  beforeAll(async () => {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const get = (allowPrivate: boolean) =>
    new Promise<number>((resolve, reject) => {
      const req = request(
        { host: 'localhost', port, path: '/', family: 4, agent: false, lookup: safeLookup(allowPrivate) as never },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('connects to a name that resolves to loopback only when private targets are allowed', async () => {
    await expect(get(true)).resolves.toBe(200);
    await expect(get(false)).rejects.toBeInstanceOf(UnsafeWebhookTargetError);
  });
});

describe('safeLookup through a HostResolver', () => {
  /** A resolver whose DNS answers from a table (no network). */
  const resolverOf = (table: Record<string, string[]>) => {
    const records = (family: 4 | 6) => async (host: string) => {
      const found = (table[host] ?? []).filter((a) => (family === 4 ? !a.includes(':') : a.includes(':')));
      if (!table[host]) throw Object.assign(new Error('nx'), { code: 'ENOTFOUND' });
      if (found.length === 0) throw Object.assign(new Error('no data'), { code: 'ENODATA' });
      return found.map((address) => ({ address, ttl: 60 }));
    };
    const backend: DnsBackend = { resolve4: records(4), resolve6: records(6) };
    return new HostResolver({ timeoutMs: 100, tries: 1, backend });
  };
  const lookup = (
    allowPrivate: boolean,
    resolver: HostResolver,
    host: string,
    options: { family?: number; all?: boolean } = {},
  ) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) =>
      safeLookup(allowPrivate, resolver)(host, options, (error, address, family) =>
        resolve({ error, address, family }),
      ),
    );

  it('answers a public name with its address, filtered by family, or all of them', async () => {
    const resolver = resolverOf({ 'hooks.example.com': ['93.184.216.34', '2606:2800:220:1::1'] });
    expect(await lookup(false, resolver, 'hooks.example.com', { family: 6 })).toMatchObject({
      error: null,
      address: '2606:2800:220:1::1',
      family: 6,
    });
    expect((await lookup(false, resolver, 'hooks.example.com', { all: true })).address).toEqual([
      { address: '93.184.216.34', family: 4 },
      { address: '2606:2800:220:1::1', family: 6 },
    ]);
  });

  it('refuses a name with any non-public address unless private targets are allowed', async () => {
    const resolver = resolverOf({ 'rebind.example.com': ['93.184.216.34', '10.0.0.7'] });
    expect((await lookup(false, resolver, 'rebind.example.com')).error).toBeInstanceOf(UnsafeWebhookTargetError);
    expect(await lookup(true, resolver, 'rebind.example.com')).toMatchObject({ error: null, address: '93.184.216.34' });
  });

  it('passes a resolution failure on with its DNS code', async () => {
    expect((await lookup(false, resolverOf({}), 'nowhere.example.com')).error).toMatchObject({ code: 'ENOTFOUND' });
  });
});
