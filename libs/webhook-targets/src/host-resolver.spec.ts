import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { HostResolutionError, HostResolver, type DnsBackend, type DnsRecord } from './host-resolver.js';

/** A DNS backend answering from a table, counting queries; `hang` names never answer. */
function fakeDns(table: Record<string, { a?: DnsRecord[]; aaaa?: DnsRecord[] }>, hang: string[] = []) {
  const calls: string[] = [];
  const answer =
    (kind: 'a' | 'aaaa') =>
    async (hostname: string): Promise<DnsRecord[]> => {
      calls.push(`${kind} ${hostname}`);
      if (hang.includes(hostname)) return new Promise<never>(() => undefined);
      const records = table[hostname]?.[kind];
      if (!table[hostname]) throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
      if (!records || records.length === 0) throw Object.assign(new Error('no data'), { code: 'ENODATA' });
      return records;
    };
  const backend: DnsBackend = { resolve4: answer('a'), resolve6: answer('aaaa') };
  return { backend, calls };
}

describe('HostResolver', () => {
  let clock = 1_000_000;
  const now = () => clock;
  beforeEach(() => {
    clock = 1_000_000;
  });

  it('answers IPv4 and IPv6 addresses, and caches them for their TTL', async () => {
    const { backend, calls } = fakeDns({
      'hooks.example.com': {
        a: [{ address: '93.184.216.34', ttl: 60 }],
        aaaa: [{ address: '2606:2800:220:1::1', ttl: 120 }],
      },
    });
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now });
    expect(await resolver.resolve('hooks.example.com')).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    clock += 59_000;
    expect(await resolver.resolve('HOOKS.example.com.')).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
    expect(calls).toHaveLength(2);
    // the shortest TTL of the answer (60 s) has passed: asked again
    clock += 2_000;
    await resolver.resolve('hooks.example.com');
    expect(calls).toHaveLength(4);
  });

  it('clamps the TTL: a 0 s answer is kept the minimum, a week-long one at most the maximum', async () => {
    const { backend, calls } = fakeDns({
      'short.example': { a: [{ address: '93.184.216.34', ttl: 0 }] },
      'long.example': { a: [{ address: '93.184.216.35', ttl: 604_800 }] },
    });
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now, minTtlSeconds: 5, maxTtlSeconds: 300 });
    await resolver.resolve('short.example');
    await resolver.resolve('long.example');
    clock += 4_000;
    await resolver.resolve('short.example');
    expect(calls).toHaveLength(4);
    clock += 2_000;
    await resolver.resolve('short.example');
    expect(calls).toHaveLength(6);
    clock += 300_000;
    await resolver.resolve('long.example');
    expect(calls).toHaveLength(8);
  });

  it('a name with only an A record resolves (no AAAA is no failure)', async () => {
    const { backend } = fakeDns({ 'v4.example': { a: [{ address: '93.184.216.34', ttl: 60 }] } });
    expect(await new HostResolver({ timeoutMs: 100, tries: 1, backend, now }).resolve('v4.example')).toEqual([
      '93.184.216.34',
    ]);
  });

  it('a name that does not exist fails with its DNS code, and the failure is cached for the negative TTL', async () => {
    const { backend, calls } = fakeDns({});
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now, negativeTtlSeconds: 30 });
    await expect(resolver.resolve('nowhere.invalid')).rejects.toMatchObject({
      name: 'HostResolutionError',
      code: 'ENOTFOUND',
    });
    await expect(resolver.resolve('nowhere.invalid')).rejects.toBeInstanceOf(HostResolutionError);
    expect(calls).toHaveLength(2);
    clock += 31_000;
    await expect(resolver.resolve('nowhere.invalid')).rejects.toBeInstanceOf(HostResolutionError);
    expect(calls).toHaveLength(4);
  });

  it(
    'a server that never answers costs one bounded wait ' + '(ETIMEOUT), then the failure is served from the cache',
    async () => {
      const { backend, calls } = fakeDns({}, ['slow.example']);
      const resolver = new HostResolver({ timeoutMs: 50, tries: 1, backend, now, negativeTtlSeconds: 30 });
      const started = Date.now();
      await expect(resolver.resolve('slow.example')).rejects.toMatchObject({ code: 'ETIMEOUT' });
      expect(Date.now() - started).toBeLessThan(5_000);
      // served from the cache: no query sent again
      await expect(resolver.resolve('slow.example')).rejects.toMatchObject({ code: 'ETIMEOUT' });
      expect(calls).toHaveLength(2);
    },
  );

  it("keeps a name's IPv4 answer when its AAAA query never answers, asking again after the shortest TTL", async () => {
    const calls: string[] = [];
    const backend: DnsBackend = {
      resolve4: async (hostname) => {
        calls.push(`a ${hostname}`);
        return [{ address: '93.184.216.34', ttl: 600 }];
      },
      resolve6: (hostname) => {
        calls.push(`aaaa ${hostname}`);
        return new Promise<never>(() => undefined);
      },
    };
    const resolver = new HostResolver({ timeoutMs: 2_000, tries: 2, backend, now, minTtlSeconds: 5 });
    const started = Date.now();
    expect(await resolver.resolve('v6-drops.example')).toEqual(['93.184.216.34']);
    // the grace after the IPv4 answer, not the 8 s deadline
    expect(Date.now() - started).toBeLessThan(2_000);
    clock += 4_000;
    await resolver.resolve('v6-drops.example');
    expect(calls).toHaveLength(2);
    clock += 2_000;
    await resolver.resolve('v6-drops.example');
    expect(calls).toHaveLength(4);
  });

  it('waits for the A answer when the AAAA one comes first', async () => {
    const backend: DnsBackend = {
      resolve4: () => new Promise((resolve) => setTimeout(() => resolve([{ address: '93.184.216.34', ttl: 60 }]), 400)),
      resolve6: async () => [{ address: '2606:2800:220:1::1', ttl: 60 }],
    };
    const resolver = new HostResolver({ timeoutMs: 2_000, tries: 2, backend, now });
    expect(await resolver.resolve('slow-a.example')).toEqual(['93.184.216.34', '2606:2800:220:1::1']);
  });

  it('concurrent resolutions of one name make one query', async () => {
    const { backend, calls } = fakeDns({ 'busy.example': { a: [{ address: '93.184.216.34', ttl: 60 }] } });
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now });
    const answers = await Promise.all(Array.from({ length: 20 }, () => resolver.resolve('busy.example')));
    expect(new Set(answers.map((a) => a.join()))).toEqual(new Set(['93.184.216.34']));
    expect(calls).toHaveLength(2);
  });

  it('IP literals and localhost names answer without a query', async () => {
    const { backend, calls } = fakeDns({});
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now });
    expect(await resolver.resolve('10.0.0.1')).toEqual(['10.0.0.1']);
    expect(await resolver.resolve('[::1]')).toEqual(['::1']);
    expect(await resolver.resolve('localhost')).toEqual(['127.0.0.1', '::1']);
    expect(await resolver.resolve('api.localhost')).toEqual(['127.0.0.1', '::1']);
    expect(calls).toEqual([]);
  });

  it('holds at most maxEntries names, dropping the oldest', async () => {
    const table = Object.fromEntries(
      Array.from({ length: 5 }, (_, i) => [`h${i}.example`, { a: [{ address: `93.184.216.${i + 1}`, ttl: 60 }] }]),
    );
    const { backend, calls } = fakeDns(table);
    const resolver = new HostResolver({ timeoutMs: 100, tries: 1, backend, now, maxEntries: 3 });
    for (let i = 0; i < 5; i++) await resolver.resolve(`h${i}.example`);
    expect(resolver.size).toBe(3);
    await resolver.resolve('h4.example');
    expect(calls).toHaveLength(10);
    await resolver.resolve('h0.example');
    expect(calls).toHaveLength(12);
  });
});

describe('HostResolver over c-ares (a real UDP DNS server that never answers)', () => {
  let server: Socket;
  let port: number;
  beforeAll(async () => {
    server = createSocket('udp4');
    server.on('message', () => undefined); // swallows every query
    await new Promise<void>((resolve) => server.bind(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('gives up within its bounds (timeout x tries), off the thread pool', async () => {
    const resolver = new HostResolver({ timeoutMs: 100, tries: 2, servers: [`127.0.0.1:${port}`] });
    const started = Date.now();
    await expect(resolver.resolve('hangs.example.com')).rejects.toBeInstanceOf(HostResolutionError);
    // c-ares's own defaults (5 s a try, 4 tries) would take 20 s and more
    expect(Date.now() - started).toBeLessThan(4_000);
  });
});
