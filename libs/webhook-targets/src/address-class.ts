/**
 * Which kind of network an IP address belongs to: only `public` addresses may receive webhooks
 * when WEBHOOK_ALLOW_PRIVATE is false (protection against server-side request forgery). Pure.
 *
 * Refused besides loopback, RFC 1918 and link-local: unique-local and site-local IPv6,
 * the unspecified address, carrier-grade NAT (100.64/10), multicast, broadcast, documentation,
 * benchmarking and reserved ranges; and IPv6 forms that embed an IPv4 address (mapped
 * `::ffff:a.b.c.d`, compatible `::a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`) are judged by
 * the IPv4 address they carry.
 */
import { isIPv4, isIPv6 } from 'node:net';

export type AddressClass =
  | 'public'
  | 'loopback'
  | 'private'
  | 'link_local'
  | 'unique_local'
  | 'unspecified'
  | 'shared'
  | 'multicast'
  | 'reserved'
  | 'documentation'
  | 'invalid';

interface V4Range {
  base: number;
  bits: number;
  kind: Exclude<AddressClass, 'public' | 'invalid'>;
}

const v4 = (dotted: string, bits: number, kind: V4Range['kind']): V4Range => ({ base: ipv4ToInt(dotted)!, bits, kind });

const V4_RANGES: readonly V4Range[] = [
  v4('0.0.0.0', 8, 'unspecified'),
  v4('10.0.0.0', 8, 'private'),
  v4('100.64.0.0', 10, 'shared'),
  v4('127.0.0.0', 8, 'loopback'),
  v4('169.254.0.0', 16, 'link_local'),
  v4('172.16.0.0', 12, 'private'),
  v4('192.0.0.0', 24, 'reserved'),
  v4('192.0.2.0', 24, 'documentation'),
  v4('192.88.99.0', 24, 'reserved'),
  v4('192.168.0.0', 16, 'private'),
  v4('198.18.0.0', 15, 'reserved'),
  v4('198.51.100.0', 24, 'documentation'),
  v4('203.0.113.0', 24, 'documentation'),
  v4('224.0.0.0', 4, 'multicast'),
  v4('240.0.0.0', 4, 'reserved'),
];

/** The class of an IPv4 or IPv6 address literal (an IPv6 zone id such as `%eth0` is ignored). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.startsWith('[') && address.endsWith(']') ? address.slice(1, -1) : address;
  if (isIPv4(bare)) return classifyV4(ipv4ToInt(bare)!);
  const noZone = bare.split('%')[0] ?? '';
  if (isIPv6(noZone)) return classifyV6(ipv6ToHextets(noZone));
  return 'invalid';
}

/** True when a webhook may be sent to this address with WEBHOOK_ALLOW_PRIVATE false. */
export function isPublicAddress(address: string): boolean {
  return classifyAddress(address) === 'public';
}

function classifyV4(value: number): AddressClass {
  for (const range of V4_RANGES) {
    const mask = range.bits === 0 ? 0 : (~0 << (32 - range.bits)) >>> 0;
    if ((value & mask) >>> 0 === (range.base & mask) >>> 0) return range.kind;
  }
  return 'public';
}

function classifyV6(h: number[]): AddressClass {
  const [h0 = 0, h1 = 0, h2 = 0, h3 = 0, h4 = 0, h5 = 0, h6 = 0, h7 = 0] = h;
  const embedded = (hi: number, lo: number) => classifyV4(((hi << 16) | lo) >>> 0);
  const firstFiveZero = h0 === 0 && h1 === 0 && h2 === 0 && h3 === 0 && h4 === 0;
  if (firstFiveZero && h5 === 0 && h6 === 0 && h7 === 0) return 'unspecified';
  if (firstFiveZero && h5 === 0 && h6 === 0 && h7 === 1) return 'loopback';
  // ::ffff:a.b.c.d (mapped) and ::a.b.c.d (compatible, deprecated)
  if (firstFiveZero && (h5 === 0xffff || h5 === 0)) return embedded(h6, h7);
  // 64:ff9b::/96 (NAT64) and 64:ff9b:1::/48 (local-use NAT64)
  if (h0 === 0x64 && h1 === 0xff9b) return h2 === 1 ? 'private' : embedded(h6, h7);
  // 2002::/16 (6to4): the IPv4 address is in bits 16..47
  if (h0 === 0x2002) return embedded(h1, h2);
  if ((h0 & 0xfe00) === 0xfc00) return 'unique_local';
  if ((h0 & 0xffc0) === 0xfe80) return 'link_local';
  if ((h0 & 0xffc0) === 0xfec0) return 'private';
  if ((h0 & 0xff00) === 0xff00) return 'multicast';
  if (h0 === 0x2001 && h1 === 0x0db8) return 'documentation';
  if (h0 === 0x0100 && h1 === 0 && h2 === 0 && h3 === 0) return 'reserved';
  // 2001::/23 holds Teredo (2001::/32) and other IETF assignments: not a webhook receiver.
  if (h0 === 0x2001 && h1 < 0x0200) return 'reserved';
  return 'public';
}

function ipv4ToInt(dotted: string): number | undefined {
  const parts = dotted.split('.').map(Number);
  if (parts.length !== 4 || parts.some((p) => !Number.isInteger(p) || p < 0 || p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

/** Eight 16-bit groups of a valid IPv6 literal (`::` expanded, a dotted IPv4 tail converted). */
function ipv6ToHextets(address: string): number[] {
  let text = address.toLowerCase();
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const value = ipv4ToInt(dotted[1]!) ?? 0;
    text = `${text.slice(0, dotted.index)}${(value >>> 16).toString(16)}:${(value & 0xffff).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const parse = (part: string) => (part ? part.split(':').map((g) => parseInt(g, 16)) : []);
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const zeros = tail === undefined ? [] : new Array<number>(8 - left.length - right.length).fill(0);
  return [...left, ...zeros, ...right];
}
