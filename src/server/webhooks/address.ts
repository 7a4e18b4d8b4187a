// Which addresses a webhook may be sent to. A service shared by a team must not become a way into
// its own network (SSRF): hosts that resolve to loopback, private, link-local, unique-local or
// other non-public addresses are refused, at create and again at every send (DNS can change; the
// connection goes to the address checked, through `guardedLookup`). A sandbox allows loopback (a
// receiver on the developer's machine); `serve --allow-private-webhooks` allows everything.
import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

export type AddressPolicy = 'public' | 'loopback' | 'any';

export type AddressKind = 'loopback' | 'private' | 'public';

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const nonPublic = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::', 128],
  ['fe80::', 10],
  ['fc00::', 7],
  ['fec0::', 10],
  ['ff00::', 8],
  ['2001:db8::', 32],
  ['100::', 64],
] as const)
  nonPublic.addSubnet(net, bits, 'ipv6');

/** The IPv4 address inside an IPv4-mapped (::ffff:a.b.c.d or ::ffff:xxxx:xxxx) or NAT64 (64:ff9b::/96) IPv6 address. */
function embeddedIpv4(ip: string): string | undefined {
  const m = /^(?:::ffff:|64:ff9b::)(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

/** What kind of address `ip` is (an IP literal; IPv6 without brackets). */
export function addressKind(ip: string): AddressKind {
  const family = isIP(ip);
  if (family === 6) {
    const v4 = embeddedIpv4(ip);
    if (v4) return addressKind(v4);
    if (loopback.check(ip, 'ipv6')) return 'loopback';
    return nonPublic.check(ip, 'ipv6') ? 'private' : 'public';
  }
  if (family === 4) {
    if (loopback.check(ip, 'ipv4')) return 'loopback';
    return nonPublic.check(ip, 'ipv4') ? 'private' : 'public';
  }
  return 'private';
}

/** Why an address is refused under the policy, or null when it is allowed. */
export function refusal(ip: string, policy: AddressPolicy): string | null {
  if (policy === 'any') return null;
  const kind = addressKind(ip);
  if (kind === 'public' || (kind === 'loopback' && policy === 'loopback')) return null;
  const words = kind === 'loopback' ? 'a loopback address' : 'a private, link-local or reserved address';
  return `resolves to ${ip}, ${words}; this service only sends webhooks to public addresses${policy === 'public' ? ' (serve --allow-private-webhooks allows others)' : ' and loopback (serve --allow-private-webhooks allows others)'}`;
}

export class AddressRefused extends Error {
  override name = 'AddressRefused';
}

/** The URL's host without IPv6 brackets. */
export const hostOf = (url: URL): string => url.hostname.replace(/^\[|\]$/g, '');

/** Resolves the URL's host and checks every address it has; throws AddressRefused (or the DNS error). */
export async function checkUrlAddress(url: URL, policy: AddressPolicy): Promise<void> {
  const host = hostOf(url);
  const addresses = isIP(host)
    ? [host]
    : (
        await new Promise<LookupAddress[]>((resolve, reject) => {
          dnsLookup(host, { all: true }, (err, list) => (err ? reject(err) : resolve(list)));
        })
      ).map((a) => a.address);
  for (const ip of addresses) {
    const why = refusal(ip, policy);
    if (why) throw new AddressRefused(`${host} ${why}`);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `lookup` for http.request that refuses what the policy does not allow, so the connection goes
 * only to an address that was checked (no second resolution in between).
 */
export function guardedLookup(policy: AddressPolicy) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback): void => {
    dnsLookup(hostname, { ...options, all: true }, (err, list) => {
      if (err) return callback(err, '');
      for (const a of list) {
        const why = refusal(a.address, policy);
        if (why) return callback(new AddressRefused(`${hostname} ${why}`), '');
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(new AddressRefused(`${hostname} has no address`), '');
      callback(null, first.address, first.family);
    });
  };
}
