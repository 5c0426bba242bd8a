import { BlockList, isIP } from 'node:net';

/**
 * Which network addresses a webhook sink may reach. A sink URL is typed by an admin, but the
 * request leaves from the studio's worker, inside its network: without a check it can reach the
 * studio's own database and API, a cloud metadata service (169.254.169.254, in any spelling:
 * `http://2852039166/`, `[::ffff:a9fe:a9fe]`), or anything else on a private network.
 *
 * Loopback, private, link-local, carrier-grade NAT, unspecified, multicast and reserved ranges
 * are refused unless the operator's allow-list (`WITNESS_SINK_ALLOW`) names the host, the
 * address or a range holding it, optionally with a port. The check runs on every address a name
 * resolves to, at send time, and the connection is made to the address that was checked (see
 * send-batch.ts), so a DNS answer that changes between check and connect cannot slip past it.
 */
export type AddressClass =
  'public' | 'loopback' | 'private' | 'link-local' | 'metadata' | 'shared' | 'unspecified' | 'multicast' | 'reserved';

const ranges: [AddressClass, string, number, 'ipv4' | 'ipv6'][] = [
  ['metadata', '169.254.169.254', 32, 'ipv4'],
  ['metadata', 'fd00:ec2::254', 128, 'ipv6'],
  ['unspecified', '0.0.0.0', 8, 'ipv4'],
  ['loopback', '127.0.0.0', 8, 'ipv4'],
  ['private', '10.0.0.0', 8, 'ipv4'],
  ['private', '172.16.0.0', 12, 'ipv4'],
  ['private', '192.168.0.0', 16, 'ipv4'],
  ['shared', '100.64.0.0', 10, 'ipv4'],
  ['link-local', '169.254.0.0', 16, 'ipv4'],
  ['reserved', '192.0.0.0', 24, 'ipv4'],
  ['reserved', '192.0.2.0', 24, 'ipv4'],
  ['reserved', '198.18.0.0', 15, 'ipv4'],
  ['reserved', '198.51.100.0', 24, 'ipv4'],
  ['reserved', '203.0.113.0', 24, 'ipv4'],
  ['multicast', '224.0.0.0', 4, 'ipv4'],
  ['reserved', '240.0.0.0', 4, 'ipv4'],
  ['unspecified', '::', 128, 'ipv6'],
  ['loopback', '::1', 128, 'ipv6'],
  ['private', 'fc00::', 7, 'ipv6'],
  ['link-local', 'fe80::', 10, 'ipv6'],
  ['reserved', 'fec0::', 10, 'ipv6'],
  ['multicast', 'ff00::', 8, 'ipv6'],
  ['reserved', '2001:db8::', 32, 'ipv6'],
  ['reserved', '100::', 64, 'ipv6'],
];

const lists = new Map<AddressClass, BlockList>();
for (const [cls, net, prefix, family] of ranges) {
  if (!lists.has(cls)) lists.set(cls, new BlockList());
  lists.get(cls)!.addSubnet(net, prefix, family);
}

/** The IPv4 address an IPv6 address carries (mapped ::ffff:a.b.c.d, compatible ::a.b.c.d, NAT64 64:ff9b::/96, 6to4 2002::/16), if any. */
export function embeddedIpv4(ipv6: string): string | null {
  const groups = expandIpv6(ipv6);
  if (!groups) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zero = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  if (zero(0, 5) && groups[5] === 0xffff) return v4(groups[6]!, groups[7]!);
  if (zero(0, 6) && (groups[6]! !== 0 || groups[7]! > 1)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x64 && groups[1] === 0xff9b && zero(2, 6)) return v4(groups[6]!, groups[7]!);
  if (groups[0] === 0x2002) return v4(groups[1]!, groups[2]!);
  return null;
}

function expandIpv6(address: string): number[] | null {
  let text = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  // a trailing dotted quad (::ffff:1.2.3.4) becomes two groups
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => parseInt(g, 16)));
  const left = parse(head);
  const right = tail === undefined ? [] : parse(tail);
  const missing = 8 - left.length - right.length;
  if (missing < 0 || (tail === undefined && missing !== 0)) return null;
  const groups = [...left, ...new Array<number>(missing).fill(0), ...right];
  return groups.every((g) => Number.isInteger(g) && g >= 0 && g <= 0xffff) ? groups : null;
}

/** The class of one IP address (IPv4-in-IPv6 forms are judged by the IPv4 address they carry). */
export function classifyAddress(address: string): AddressClass {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) throw new Error(`not an IP address: ${address}`);
  if (family === 6) {
    const v4 = embeddedIpv4(bare);
    if (v4) return classifyAddress(v4);
  }
  const type = family === 4 ? 'ipv4' : 'ipv6';
  for (const [cls, list] of lists) if (list.check(bare, type)) return cls;
  return 'public';
}

export interface AllowEntry {
  /** a host name (lower case), an IP address, or a CIDR range */
  host: string;
  port: number | null;
}

/** Parses `WITNESS_SINK_ALLOW`: comma-separated `host`, `host:port`, `address`, `[v6]:port` or `cidr` entries. */
export function parseAllowList(text: string): AllowEntry[] {
  return text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(entry);
      if (bracketed) return { host: bracketed[1]!.toLowerCase(), port: bracketed[2] ? Number(bracketed[2]) : null };
      if (isIP(entry) === 6 || entry.includes('/')) return { host: entry.toLowerCase(), port: null };
      const m = /^([^:]+)(?::(\d+))?$/.exec(entry);
      if (!m) throw new Error(`WITNESS_SINK_ALLOW: cannot read "${entry}" (host, host:port, address or CIDR)`);
      return { host: m[1]!.toLowerCase(), port: m[2] ? Number(m[2]) : null };
    });
}

function inRange(address: string, cidr: string): boolean {
  const [net, bits] = cidr.split('/') as [string, string];
  const family = isIP(net);
  if (!family || isIP(address) !== family) return false;
  const list = new BlockList();
  list.addSubnet(net, Number(bits), family === 4 ? 'ipv4' : 'ipv6');
  return list.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/**
 * Refuses (with the reason) a connection to `address` for a URL naming `host`:`port`, unless the
 * address is public or the allow-list names the host, the address or a range holding it.
 */
export function checkOutboundAddress(host: string, port: number, address: string, allow: AllowEntry[]): string | null {
  const cls = classifyAddress(address);
  if (cls === 'public') return null;
  const name = host.replace(/^\[|\]$/g, '').toLowerCase();
  const allowed = allow.some(
    (e) =>
      (e.port === null || e.port === port) &&
      (e.host === name || e.host === address.toLowerCase() || (e.host.includes('/') && inRange(address, e.host))),
  );
  if (allowed) return null;
  // an IPv6 form that carries an IPv4 address (::ffff:a9fe:a9fe) says which
  const v4 = isIP(address) === 6 ? embeddedIpv4(address) : null;
  const shown = v4 ? `${address} (${v4})` : address;
  const what = name === address.toLowerCase() ? `${shown} is a ${cls} address` : `${host} resolves to ${shown}, a ${cls} address`;
  return `${what}: sinks may not reach it unless WITNESS_SINK_ALLOW names it`;
}

/**
 * The check a URL can get before any DNS answer: its host as the WHATWG URL parser (and so
 * node:http) reads it, every spelling of an address normalised (`2852039166`, `0xa9fea9fe`,
 * `0251.0376.0251.0376` and `169.254.43518` are all `169.254.169.254`; `[::ffff:169.254.169.254]`
 * carries it), judged by checkOutboundAddress; `localhost` and `*.localhost` always mean loopback.
 * A name is left to the send-time check of what it resolves to. Null when nothing refuses it.
 */
export function checkUrlHost(urlText: string, allow: AllowEntry[]): string | null {
  const url = new URL(urlText);
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
  const bare = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(bare)) return checkOutboundAddress(url.hostname, port, bare, allow);
  const name = bare.toLowerCase().replace(/\.$/, '');
  if (name === 'localhost' || name.endsWith('.localhost')) return checkOutboundAddress(name, port, '127.0.0.1', allow);
  return null;
}
