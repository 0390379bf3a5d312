/**
 * The one statement of "which client is this" for every limit that counts per address: the
 * @fastify/rate-limit route limits (app.ts), the sign-in limits, the public lookup's and report requests'
 * counters and allowances, and the bench API's wrong-key limit. An IPv4 address counts as it is; an
 * IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, what a dual-stack listener reports for an IPv4 client) as
 * that IPv4 address; any other IPv6 address by its /64, since one subscriber usually holds a whole /64 and
 * could otherwise take a fresh allowance with every address of it (decision 0042).
 * The address itself comes from Fastify's `req.ip`, which behind the proxies of TRUST_PROXY is the client's
 * (config.ts, decision 0010). Records (audit log, search requests) keep the full address; only counting
 * groups it. test/address-keys.test.ts fails when a limit keys on an address any other way.
 */
import net from 'node:net';
import { normalizeIP } from '@fastify/rate-limit';

export const IPV6_PREFIX = 64;

/** The key a limit counts `ip` under: IPv4 as is, IPv4-mapped IPv6 as IPv4, other IPv6 as its /64. */
export function addressKey(ip: string): string {
  if (net.isIPv4(ip)) return ip;
  if (!net.isIPv6(ip)) return ip.toLowerCase();
  try {
    const key = normalizeIP(ip, IPV6_PREFIX);
    return net.isIPv4(key) ? key : `${key}/${IPV6_PREFIX}`;
  } catch {
    // An address net accepts and ip-address cannot read (a zone index, `fe80::1%eth0`): its own text.
    return ip.toLowerCase();
  }
}
