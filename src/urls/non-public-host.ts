import { embeddedIPv4, formatIPv4, inCidr, parseCidr, parseIp, type Cidr } from './ip-address.js';

/** What makes a host one a tool call should not reach unless the role names it. */
export type NonPublicKind = 'cloud metadata' | 'loopback' | 'unspecified' | 'private' | 'link-local' | 'reserved' | 'internal name';

export interface NonPublic {
  kind: NonPublicKind;
  /** How an IPv6 address carries the IPv4 one it was judged by (`NAT64 169.254.169.254`). */
  via?: string;
}

/** Instance metadata services: credentials live here, so only an exact allow entry unlocks them. */
const METADATA_ADDRESSES = new Set([
  '169.254.169.254', // AWS, Azure, GCP, OpenStack, DigitalOcean, Oracle…
  '169.254.170.2', // AWS ECS task metadata and credentials
  '100.100.100.200', // Alibaba Cloud
  '192.0.0.192', // Oracle Cloud (legacy)
  '[fd00:ec2::254]', // AWS IPv6
  '[fd20:ce::254]', // GCP IPv6
]);
const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog', 'metadata', 'instance-data', 'instance-data.ec2.internal']);

/** Checked in order; the first range that holds the address names its kind. */
const RANGES: [Cidr, NonPublicKind][] = (
  [
    ['0.0.0.0/8', 'unspecified'], // "this network"; 0.0.0.0 reaches the local host on Linux and macOS
    ['127.0.0.0/8', 'loopback'],
    ['10.0.0.0/8', 'private'],
    ['172.16.0.0/12', 'private'],
    ['192.168.0.0/16', 'private'],
    ['100.64.0.0/10', 'private'], // carrier-grade NAT (RFC 6598), also used inside clouds
    ['169.254.0.0/16', 'link-local'],
    ['192.0.0.0/24', 'reserved'], // IETF protocol assignments
    ['198.18.0.0/15', 'reserved'], // benchmarking
    ['224.0.0.0/4', 'reserved'], // multicast
    ['240.0.0.0/4', 'reserved'], // future use and broadcast
    ['::/128', 'unspecified'],
    ['::1/128', 'loopback'],
    ['fc00::/7', 'private'], // unique local
    ['fec0::/10', 'private'], // site-local (deprecated, still routed by some stacks)
    ['fe80::/10', 'link-local'],
    ['64:ff9b:1::/48', 'private'], // local-use NAT64
    ['100::/64', 'reserved'], // discard-only
    ['ff00::/8', 'reserved'], // multicast
  ] as const
).map(([range, kind]) => [parseCidr(range)!, kind]);

/**
 * Whether a canonical host (dotted IPv4, bracketed IPv6 or a lower-case ASCII name without a trailing dot)
 * is loopback, private, link-local, cloud metadata or otherwise not on the public internet. Names are judged
 * by name only: `localhost` and `*.localhost` are loopback (RFC 6761); a name with no dot, or under `.local`,
 * `.localdomain`, `.internal` or `.home.arpa`, only resolves inside a private network.
 */
export function nonPublicHost(host: string): NonPublic | undefined {
  if (METADATA_ADDRESSES.has(host) || METADATA_NAMES.has(host)) return { kind: 'cloud metadata' };
  const ip = parseIp(host);
  if (!ip) {
    if (host === 'localhost' || host.endsWith('.localhost') || host === 'localhost.localdomain' || host === 'ip6-localhost' || host === 'ip6-loopback') return { kind: 'loopback' };
    if (!host.includes('.') || /\.(local|localdomain|internal|home\.arpa)$/.test(host)) return { kind: 'internal name' };
    return undefined;
  }
  const kind = RANGES.find(([range]) => inCidr(ip, range))?.[1];
  if (kind) return { kind };
  const inner = embeddedIPv4(ip);
  if (inner) {
    const v4 = formatIPv4(inner.value);
    const judged = nonPublicHost(v4);
    if (judged) return { kind: judged.kind, via: `${inner.how} ${v4}` };
  }
  return undefined;
}
