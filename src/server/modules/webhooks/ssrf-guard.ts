/**
 * Where a webhook may be sent (docs/decisions/0066-webhooks.md, "SSRF"). An administrator types the URL, but
 * the request leaves from inside the manufacturer's network: without these rules an endpoint could make the
 * server call its own database port, another internal service, or the cloud's metadata service (which hands
 * out credentials). The host is resolved once and the request connects to the address that was checked, so a
 * name that resolves to a public address when checked and a private one when connecting cannot slip through.
 */
import dns from 'node:dns/promises';
import net from 'node:net';

export type AddressKind = 'public' | 'loopback' | 'private' | 'unspecified' | 'link-local' | 'metadata' | 'reserved';

export interface GuardOptions {
  /** loopback and private ranges allowed (WEBHOOK_ALLOW_PRIVATE); link-local and metadata never are */
  allowPrivate: boolean;
}

/** Host names of cloud metadata services, refused before any lookup. */
const METADATA_HOSTS = new Set(['metadata.google.internal', 'metadata.goog', 'metadata']);
function blocks(entries: [string, number, 'ipv4' | 'ipv6'][]): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix, type] of entries) list.addSubnet(address, prefix, type);
  return list;
}

/** The metadata services' addresses: AWS, GCP, Azure, OpenStack (169.254.169.254), AWS over IPv6, Alibaba. */
const METADATA = blocks([
  ['169.254.169.254', 32, 'ipv4'],
  ['100.100.100.200', 32, 'ipv4'],
  ['fd00:ec2::254', 128, 'ipv6'],
]);
const LOOPBACK = blocks([
  ['127.0.0.0', 8, 'ipv4'],
  ['::1', 128, 'ipv6'],
]);
const UNSPECIFIED = blocks([
  ['0.0.0.0', 8, 'ipv4'],
  ['::', 128, 'ipv6'],
]);
const LINK_LOCAL = blocks([
  ['169.254.0.0', 16, 'ipv4'],
  ['fe80::', 10, 'ipv6'],
]);
const PRIVATE = blocks([
  ['10.0.0.0', 8, 'ipv4'],
  ['172.16.0.0', 12, 'ipv4'],
  ['192.168.0.0', 16, 'ipv4'],
  // CGNAT: a carrier's or a cloud's internal network
  ['100.64.0.0', 10, 'ipv4'],
  ['fc00::', 7, 'ipv6'],
]);
// Multicast, broadcast, documentation and benchmarking ranges, the old site-local IPv6 range, and the
// IPv6 forms that embed an IPv4 address some other way (NAT64, 6to4, Teredo): nothing a receiver uses.
const RESERVED = blocks([
  ['224.0.0.0', 4, 'ipv4'],
  ['240.0.0.0', 4, 'ipv4'],
  ['192.0.0.0', 24, 'ipv4'],
  ['192.0.2.0', 24, 'ipv4'],
  ['198.18.0.0', 15, 'ipv4'],
  ['198.51.100.0', 24, 'ipv4'],
  ['203.0.113.0', 24, 'ipv4'],
  ['ff00::', 8, 'ipv6'],
  ['fec0::', 10, 'ipv6'],
  ['64:ff9b::', 96, 'ipv6'],
  ['2002::', 16, 'ipv6'],
  ['2001::', 32, 'ipv6'],
  ['2001:db8::', 32, 'ipv6'],
]);

/** The 16 bytes of an IPv6 address (an embedded dotted IPv4 tail included). */
function ipv6Bytes(address: string): number[] {
  let text = address;
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, -tail[1]!.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, rest] = text.split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const groups = rest === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return groups.flatMap((g) => {
    const n = parseInt(g || '0', 16);
    return [n >> 8, n & 255];
  });
}

/** An IPv4-mapped IPv6 address (::ffff:10.0.0.1, ::ffff:a00:1) as the IPv4 address it reaches. */
export function unmapped(address: string): string {
  if (!net.isIPv6(address)) return address;
  const b = ipv6Bytes(address);
  const mapped = b.slice(0, 10).every((x) => x === 0) && b[10] === 255 && b[11] === 255;
  return mapped ? b.slice(12).join('.') : address;
}

/** What an IP address is, for the rules below. */
export function classifyAddress(input: string): AddressKind {
  const address = unmapped(input.replace(/^\[|\]$/g, '').split('%')[0]!);
  const type = net.isIPv4(address) ? 'ipv4' : net.isIPv6(address) ? 'ipv6' : null;
  if (!type) return 'reserved';
  if (METADATA.check(address, type)) return 'metadata';
  if (UNSPECIFIED.check(address, type)) return 'unspecified';
  if (LOOPBACK.check(address, type)) return 'loopback';
  if (LINK_LOCAL.check(address, type)) return 'link-local';
  if (PRIVATE.check(address, type)) return 'private';
  if (RESERVED.check(address, type)) return 'reserved';
  return 'public';
}

/** Why a request may not go to this address, or null when it may. */
export function refusal(address: string, options: GuardOptions): AddressKind | null {
  const kind = classifyAddress(address);
  if (kind === 'public') return null;
  if ((kind === 'loopback' || kind === 'private') && options.allowPrivate) return null;
  return kind;
}

export function isMetadataHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/\.$/, '');
  return METADATA_HOSTS.has(h);
}

/** The host of a URL as an IP literal (brackets off), or null when it is a name. */
export function literalAddress(hostname: string): string | null {
  const h = hostname.replace(/^\[|\]$/g, '');
  return net.isIP(h) ? h : null;
}

export class BlockedAddressError extends Error {
  override name = 'BlockedAddressError';
  constructor(
    readonly host: string,
    readonly kind: AddressKind | 'unresolved',
  ) {
    super(kind === 'unresolved' ? `${host} did not resolve` : `${host} resolves to a ${kind} address, which webhooks may not call`);
  }
}

export type Lookup = (hostname: string) => Promise<{ address: string; family: number }[]>;

const systemLookup: Lookup = (hostname) => dns.lookup(hostname, { all: true, verbatim: true });

/**
 * The address to connect to for `hostname`: every address it resolves to must be allowed (a name with one
 * private address among public ones is refused, since which one a connection gets is not ours to choose).
 */
export async function resolveTarget(
  hostname: string,
  options: GuardOptions,
  lookup: Lookup = systemLookup,
): Promise<{ address: string; family: 4 | 6 }> {
  if (isMetadataHost(hostname)) throw new BlockedAddressError(hostname, 'metadata');
  const literal = literalAddress(hostname);
  const found = literal ? [{ address: literal, family: net.isIP(literal) }] : await lookup(hostname).catch(() => []);
  if (found.length === 0) throw new BlockedAddressError(hostname, 'unresolved');
  for (const a of found) {
    const why = refusal(a.address, options);
    if (why) throw new BlockedAddressError(hostname, why);
  }
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}
