import Fastify from 'fastify';
import { TrustProxySchema } from './trust-proxy.js';

describe('TRUST_PROXY', () => {
  it('trusts no proxy by default', () => {
    expect(TrustProxySchema.parse(undefined)).toBe(false);
    expect(TrustProxySchema.parse('false')).toBe(false);
  });

  it('takes a list of addresses and ranges', () => {
    expect(TrustProxySchema.parse('10.0.0.0/8, 192.168.1.7,loopback, ::1, fd00::/8')).toEqual([
      '10.0.0.0/8',
      '192.168.1.7',
      'loopback',
      '::1',
      'fd00::/8',
    ]);
  });

  it('refuses true, host names and malformed ranges', () => {
    for (const bad of ['true', '1', 'proxy.internal', '10.0.0.0/33', '10.0.0.1/8/2', ','])
      expect(TrustProxySchema.safeParse(bad).success).toBe(false);
  });

  it.each([
    ['false', '127.0.0.1'],
    ['127.0.0.1', '198.51.100.4'],
    ['loopback', '198.51.100.4'],
    ['10.0.0.0/8', '127.0.0.1'],
  ])('with TRUST_PROXY=%s a loopback peer sending X-Forwarded-For is seen as %s', async (setting, expected) => {
    const app = Fastify({ trustProxy: TrustProxySchema.parse(setting) });
    app.get('/', async (request) => ({ ip: request.ip }));
    const res = await app.inject({
      url: '/',
      remoteAddress: '127.0.0.1',
      headers: { 'x-forwarded-for': '198.51.100.4' },
    });
    await app.close();
    expect(res.json()).toEqual({ ip: expected });
  });
});
