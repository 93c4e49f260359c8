/** An IP address as a number: 32 bits for IPv4, 128 for IPv6. */
export interface IpAddress {
  version: 4 | 6;
  value: bigint;
}

/** An address range such as `10.0.0.0/8` or `fc00::/7`. */
export interface Cidr {
  version: 4 | 6;
  base: bigint;
  bits: number;
}

const DOTTED = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/;
const WIDTH = { 4: 32, 6: 128 } as const;

/**
 * Parses a dotted-quad IPv4 address or an IPv6 address (bracketed or not, with an optional dotted tail).
 * Only the plain forms: the odd IPv4 spellings (`0x7f.1`, `2130706433`) are the WHATWG parser's job, and
 * every host reaches this function after it.
 */
export function parseIp(text: string): IpAddress | undefined {
  const m = DOTTED.exec(text);
  if (m) {
    const parts = m.slice(1).map(Number);
    if (parts.some((p) => p > 255)) return undefined;
    return { version: 4, value: BigInt(parts.reduce((a, p) => a * 256 + p, 0)) };
  }
  const v6 = parseIPv6(text.startsWith('[') && text.endsWith(']') ? text.slice(1, -1) : text);
  return v6 === undefined ? undefined : { version: 6, value: v6 };
}

function parseIPv6(text: string): bigint | undefined {
  let s = text;
  if (!/^[0-9a-f:.]+$/i.test(s) || !s.includes(':')) return undefined;
  if (s.includes('.')) {
    const at = s.lastIndexOf(':');
    const v4 = parseIp(s.slice(at + 1));
    if (v4?.version !== 4) return undefined;
    s = `${s.slice(0, at + 1)}${(v4.value >> 16n).toString(16)}:${(v4.value & 0xffffn).toString(16)}`;
  }
  const halves = s.split('::');
  if (halves.length > 2) return undefined;
  const groups = (h: string) => (h === '' ? [] : h.split(':'));
  const head = groups(halves[0]);
  const tail = halves.length === 2 ? groups(halves[1]) : [];
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill('0'), ...tail];
  if (all.some((g) => !/^[0-9a-f]{1,4}$/i.test(g))) return undefined;
  return all.reduce((a, g) => (a << 16n) | BigInt(parseInt(g, 16)), 0n);
}

export function formatIPv4(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/** `10.0.0.0/8`, `fc00::/7`; bits past the prefix are ignored. Undefined when it is not a range. */
export function parseCidr(text: string): Cidr | undefined {
  const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
  const ip = m ? parseIp(m[1]) : undefined;
  if (!m || !ip) return undefined;
  const bits = Number(m[2]);
  const width = WIDTH[ip.version];
  if (bits > width) return undefined;
  return { version: ip.version, base: ip.value & mask(width, bits), bits };
}

export function inCidr(ip: IpAddress, cidr: Cidr): boolean {
  return ip.version === cidr.version && (ip.value & mask(WIDTH[ip.version], cidr.bits)) === cidr.base;
}

/** Whether the range is a single address (a /32 or /128). */
export function isSingleAddress(cidr: Cidr): boolean {
  return cidr.bits === WIDTH[cidr.version];
}

function mask(width: number, bits: number): bigint {
  return ((1n << BigInt(width)) - 1n) ^ ((1n << BigInt(width - bits)) - 1n);
}

export type Embedding = 'mapped' | 'compatible' | 'translated' | 'NAT64' | '6to4';

/**
 * The IPv4 address inside an IPv6 one: mapped (`::ffff:a.b.c.d`, which *is* that IPv4 host on a dual-stack
 * socket), compatible (`::a.b.c.d`), translated (`::ffff:0:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
 * (`2002::/16`) — each of which can carry a packet to the IPv4 address inside.
 */
export function embeddedIPv4(ip: IpAddress): { value: bigint; how: Embedding } | undefined {
  if (ip.version !== 6) return undefined;
  const high = ip.value >> 32n;
  const low = ip.value & 0xffffffffn;
  if (high === 0xffffn) return { value: low, how: 'mapped' };
  if (high === 0n && ip.value > 1n) return { value: low, how: 'compatible' };
  if (high === 0xffff0000n) return { value: low, how: 'translated' };
  if (high === 0x64ff9b0000000000000000n) return { value: low, how: 'NAT64' };
  if (ip.value >> 112n === 0x2002n) return { value: (ip.value >> 80n) & 0xffffffffn, how: '6to4' };
  return undefined;
}
