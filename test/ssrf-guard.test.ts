/** The SSRF guard's rules, address by address, and its DNS check with a lookup the test controls. */
import { describe, expect, it } from 'vitest';
import { BlockedAddressError, classifyAddress, refusal, resolveTarget, unmapped } from '../src/server/modules/webhooks/ssrf-guard';

const strict = { allowPrivate: false };
const lenient = { allowPrivate: true };

describe('ssrf guard', () => {
  it('classifies addresses, IPv4-mapped IPv6 included', () => {
    const cases: [string, string][] = [
      ['8.8.8.8', 'public'],
      ['2606:4700:4700::1111', 'public'],
      ['127.0.0.1', 'loopback'],
      ['127.9.9.9', 'loopback'],
      ['::1', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', 'public'],
      ['192.168.1.1', 'private'],
      ['100.64.0.1', 'private'],
      ['100.127.255.255', 'private'],
      ['fc00::1', 'private'],
      ['fdab::1', 'private'],
      ['0.0.0.0', 'unspecified'],
      ['::', 'unspecified'],
      ['169.254.1.1', 'link-local'],
      ['fe80::1', 'link-local'],
      ['169.254.169.254', 'metadata'],
      ['fd00:ec2::254', 'metadata'],
      ['fd00:0ec2:0000::0254', 'metadata'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:a9fe:a9fe', 'metadata'],
      ['0:0:0:0:0:ffff:10.0.0.1', 'private'],
      ['::ffff:8.8.8.8', 'public'],
      ['224.0.0.1', 'reserved'],
      ['255.255.255.255', 'reserved'],
      ['not-an-ip', 'reserved'],
    ];
    for (const [address, kind] of cases) expect(classifyAddress(address), address).toBe(kind);
    expect(unmapped('::ffff:192.168.0.1')).toBe('192.168.0.1');
  });

  it('allows loopback and private only when the operator says so; link-local and metadata never', () => {
    expect(refusal('10.0.0.1', strict)).toBe('private');
    expect(refusal('10.0.0.1', lenient)).toBeNull();
    expect(refusal('127.0.0.1', strict)).toBe('loopback');
    expect(refusal('127.0.0.1', lenient)).toBeNull();
    for (const a of ['169.254.169.254', 'fd00:ec2::254', '::ffff:169.254.169.254', 'fe80::1', '169.254.0.5', '0.0.0.0']) {
      expect(refusal(a, lenient), a).not.toBeNull();
    }
    expect(refusal('93.184.216.34', strict)).toBeNull();
  });

  it('resolves once and refuses a name with any refused address', async () => {
    const dns = (map: Record<string, string[]>) => async (host: string) =>
      (map[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    const lookup = dns({
      'hooks.example.com': ['93.184.216.34'],
      'sneaky.example.com': ['93.184.216.34', '10.0.0.7'],
      'meta.example.com': ['169.254.169.254'],
      'v6.example.com': ['::ffff:127.0.0.1'],
    });
    await expect(resolveTarget('hooks.example.com', strict, lookup)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveTarget('sneaky.example.com', strict, lookup)).rejects.toMatchObject({ kind: 'private' });
    await expect(resolveTarget('meta.example.com', lenient, lookup)).rejects.toMatchObject({ kind: 'metadata' });
    await expect(resolveTarget('v6.example.com', strict, lookup)).rejects.toMatchObject({ kind: 'loopback' });
    await expect(resolveTarget('v6.example.com', lenient, lookup)).resolves.toMatchObject({ address: '::ffff:127.0.0.1' });
    await expect(resolveTarget('nowhere.example.com', lenient, lookup)).rejects.toBeInstanceOf(BlockedAddressError);
    // Refused by name before any lookup.
    let asked = false;
    await expect(
      resolveTarget('metadata.google.internal', lenient, async () => {
        asked = true;
        return [{ address: '8.8.8.8', family: 4 }];
      }),
    ).rejects.toMatchObject({ kind: 'metadata' });
    expect(asked).toBe(false);
    // A literal address is checked as it is, without DNS.
    await expect(resolveTarget('169.254.169.254', lenient, lookup)).rejects.toMatchObject({ kind: 'metadata' });
  });
});
