/**
 * Which network addresses the service may fetch images from: public unicast ones only, unless loopback or private
 * ranges are allowed. The ranges are ipaddr.js's (`range()`), IPv4 inside IPv6 included: an IPv4-mapped address is
 * judged as its IPv4 address, and every other form that carries or translates IPv4 (IPv4-compatible `::a.b.c.d`,
 * IPv4-translated `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4, Teredo) is refused outright.
 */
import ipaddr from 'ipaddr.js';
import { isIP } from 'node:net';

/** What may be reached besides the public internet. */
export interface AddressPolicy {
  allowLoopback: boolean;
  /** Private (RFC 1918, unique local, shared) and link-local ranges. */
  allowPrivate: boolean;
}

type Kind = 'loopback' | 'private' | 'link-local' | 'reserved';

/** ipaddr.js range names that are not public and not reserved either. */
const KINDS: Record<string, Kind> = {
  loopback: 'loopback',
  private: 'private',
  uniqueLocal: 'private',
  carrierGradeNat: 'private',
  linkLocal: 'link-local',
};

/** `::/96`, IPv4-compatible IPv6 (deprecated by RFC 4291): ipaddr.js calls it unicast, but it only carries IPv4. */
const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96');

/** The ipaddr.js range of an address, an IPv4-mapped one judged as its IPv4 address; undefined when it is no IP address. */
export function addressRange(address: string): string | undefined {
  const plain = address.replace(/^\[|\]$/g, '');
  const family = isIP(plain);
  if (family === 0) return undefined;
  // ipaddr.js reads `::a.b.c.d` as IPv4-mapped; the URL parser writes every IPv6 address in its canonical form first.
  let parsed = ipaddr.parse(family === 6 ? new URL(`http://[${plain}]/`).hostname.slice(1, -1) : plain);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  if (range === 'unicast' && parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).match(IPV4_COMPATIBLE)) return 'ipv4Compatible';
  return range;
}

/** The kind of a non-public address, or undefined for a public one. */
export function addressKind(address: string): Kind | undefined {
  const range = addressRange(address);
  if (range === undefined || range === 'unicast') return undefined;
  return KINDS[range] ?? 'reserved';
}

/** Why `address` may not be fetched under `policy`, or undefined when it may. */
export function refusal(address: string, policy: AddressPolicy): string | undefined {
  const range = addressRange(address);
  if (range === undefined) return `"${address}" is not an IP address`;
  const kind = addressKind(address);
  if (!kind) return undefined;
  if (kind === 'loopback' && policy.allowLoopback) return undefined;
  if ((kind === 'private' || kind === 'link-local') && policy.allowPrivate) return undefined;
  return `${address} is a ${kind} address (${range})`;
}
