import ipaddr from 'ipaddr.js';

/**
 * The part of a client's address that names one client for a per-address limit: an IPv4 address
 * whole (an IPv4-mapped IPv6 address as the IPv4 it maps), an IPv6 address by its /64, the
 * smallest block a network hands one subscriber (RFC 6177), within which a client picks any
 * address it likes. Anything unparsable is its own bucket, as given.
 */
export function clientAddressBucket(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const parts = (parsed as ipaddr.IPv6).parts.slice(0, 4);
  return `${new ipaddr.IPv6([...parts, 0, 0, 0, 0]).toNormalizedString()}/64`;
}
