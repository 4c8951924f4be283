/** Which network addresses the service may fetch images from: public ones only, unless loopback or private ranges are allowed. */
import { BlockList, isIP } from 'node:net';

/** What may be reached besides the public internet. */
export interface AddressPolicy {
  allowLoopback: boolean;
  /** Private (RFC 1918, unique local, shared) and link-local ranges. */
  allowPrivate: boolean;
}

type Kind = 'loopback' | 'private' | 'link-local' | 'reserved';

const RANGES: Array<[Kind, 'ipv4' | 'ipv6', string, number]> = [
  ['loopback', 'ipv4', '127.0.0.0', 8],
  ['loopback', 'ipv6', '::1', 128],
  ['private', 'ipv4', '10.0.0.0', 8],
  ['private', 'ipv4', '172.16.0.0', 12],
  ['private', 'ipv4', '192.168.0.0', 16],
  ['private', 'ipv4', '100.64.0.0', 10],
  ['private', 'ipv6', 'fc00::', 7],
  ['link-local', 'ipv4', '169.254.0.0', 16],
  ['link-local', 'ipv6', 'fe80::', 10],
  ['reserved', 'ipv4', '0.0.0.0', 8],
  ['reserved', 'ipv4', '192.0.0.0', 24],
  ['reserved', 'ipv4', '192.0.2.0', 24],
  ['reserved', 'ipv4', '198.18.0.0', 15],
  ['reserved', 'ipv4', '198.51.100.0', 24],
  ['reserved', 'ipv4', '203.0.113.0', 24],
  ['reserved', 'ipv4', '224.0.0.0', 4],
  ['reserved', 'ipv4', '240.0.0.0', 4],
  ['reserved', 'ipv6', '::', 128],
  ['reserved', 'ipv6', '100::', 64],
  ['reserved', 'ipv6', '2001:db8::', 32],
  ['reserved', 'ipv6', 'ff00::', 8],
];

const LISTS = new Map<Kind, BlockList>();
for (const [kind, family, address, prefix] of RANGES) {
  const list = LISTS.get(kind) ?? new BlockList();
  list.addSubnet(address, prefix, family);
  LISTS.set(kind, list);
}

/** The kind of a non-public address, or undefined for a public one. */
export function addressKind(address: string): Kind | undefined {
  const plain = unwrapMapped(address);
  const family = isIP(plain) === 6 ? 'ipv6' : 'ipv4';
  for (const [kind, list] of LISTS) if (list.check(plain, family)) return kind;
  return undefined;
}

/** Why `address` may not be fetched under `policy`, or undefined when it may. */
export function refusal(address: string, policy: AddressPolicy): string | undefined {
  if (isIP(unwrapMapped(address)) === 0) return `"${address}" is not an IP address`;
  const kind = addressKind(address);
  if (!kind) return undefined;
  if (kind === 'loopback' && policy.allowLoopback) return undefined;
  if ((kind === 'private' || kind === 'link-local') && policy.allowPrivate) return undefined;
  return `${address} is a ${kind} address`;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (`::ffff:a.b.c.d` or `::ffff:xxxx:xxxx`), else `address` unchanged. */
function unwrapMapped(address: string): string {
  const a = address.toLowerCase().replace(/^\[|\]$/g, '');
  const dotted = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (dotted) return dotted[1]!;
  const hex = /^(?:0{0,4}:){0,5}:?ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(a);
  if (hex) {
    const hi = parseInt(hex[1]!, 16), lo = parseInt(hex[2]!, 16);
    return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  }
  return a;
}
