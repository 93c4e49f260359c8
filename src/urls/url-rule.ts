import { canonicalHost, DEFAULT_PORTS, type CanonicalUrl } from './canonical-url.js';
import { embeddedIPv4, formatIPv4, inCidr, isSingleAddress, parseCidr, parseIp, type Cidr } from './ip-address.js';
import type { NonPublic } from './non-public-host.js';

/*
 * One URL rule: a scheme (`gopher:`), a URL glob (`https://api.example.com/v1/**`), a host pattern
 * (`example.com`, `*.example.com`, `localhost:3000`) or an address range (`10.0.0.0/8`) — parsed once, and
 * matched against canonical URLs. Used by the policy's URL check and by the config loader to refuse a bad rule
 * with its line.
 */

type HostPattern = { kind: 'any' } | { kind: 'suffix'; name: string } | { kind: 'exact'; name: string };

/** One allow or deny entry, compiled. */
export interface UrlRule {
  text: string;
  /** The scheme the entry names; undefined for any. */
  scheme?: string;
  host?: HostPattern;
  cidr?: Cidr;
  /** A port, any port, or (URL globs without one) the scheme's default port; undefined for any. */
  port?: number | '*' | 'default';
  path?: { re: RegExp; withQuery: boolean };
}

/**
 * Parses an allow or deny entry; throws with the reason when it is not one (for config validation).
 * - `gopher:` — a scheme: every URL with it;
 * - `https://api.example.com/v1/**` — a URL glob: literal scheme or `*`, a host pattern, `:port` or `:*`
 *   (without one, the scheme's default port only), and a path glob (`*` within one segment, `**` across
 *   segments, `/x/**` covering `/x` too; a glob with `?` matches path and query). No path: any path;
 * - `10.0.0.0/8`, `fd00::/8` — an address range;
 * - `example.com`, `*.example.com` (subdomains, not example.com itself), `*`, `127.0.0.1`, `[::1]`, each
 *   with an optional `:port` — a host pattern: any scheme, any path.
 * Hosts in entries are canonicalised the way URLs are, so `0x7f.1` means 127.0.0.1 and `bücher.example` its punycode.
 */
export function parseUrlRule(text: string): UrlRule {
  if (/^[a-z][a-z0-9+.-]*:$/i.test(text)) return { text, scheme: text.slice(0, -1).toLowerCase() };
  const glob = /^([a-z][a-z0-9+.-]*|\*):\/\/([^/?#]*)(.*)$/i.exec(text);
  if (glob) {
    const [, scheme, authority, path] = glob;
    if (authority.includes('@')) throw new Error(`URL rule ${text}: no userinfo in rules`);
    const hp = authority === '' ? { host: { kind: 'exact', name: '' } as HostPattern, port: undefined } : hostPattern(authority, text);
    return {
      text,
      scheme: scheme === '*' ? undefined : scheme.toLowerCase(),
      host: hp.host,
      port: hp.port ?? 'default',
      path: path === '' ? undefined : pathGlob(path, text),
    };
  }
  if (text.includes('/')) {
    const cidr = parseCidr(text.replace(/^\[([^\]]*)\]/, '$1'));
    if (!cidr) throw new Error(`URL rule ${text}: not a scheme, URL glob, address range or host`);
    return { text, cidr };
  }
  return { text, ...hostPattern(text, text) };
}

function hostPattern(authority: string, text: string): { host: HostPattern; port?: number | '*' } {
  let host = authority;
  let port: string | undefined;
  if (authority.startsWith('[')) {
    const end = authority.indexOf(']');
    host = authority.slice(0, end + 1);
    if (end < 0 || (authority.length > end + 1 && authority[end + 1] !== ':')) throw new Error(`URL rule ${text}: bad IPv6 address`);
    if (authority.length > end + 1) port = authority.slice(end + 2);
  } else if ((authority.match(/:/g) ?? []).length === 1) {
    [host, port] = authority.split(':');
  } else if (authority.includes(':')) host = `[${authority}]`;
  if (port !== undefined && port !== '*' && !(/^\d{1,5}$/.test(port) && Number(port) <= 65535)) throw new Error(`URL rule ${text}: bad port ${port}`);
  const p = port === undefined ? undefined : port === '*' ? '*' : Number(port);
  if (host === '*') return { host: { kind: 'any' }, port: p };
  const suffix = host.startsWith('*.');
  const name = canonicalHost(suffix ? host.slice(2) : host);
  if (name === undefined || name.includes('*')) throw new Error(`URL rule ${text}: ${host} is not a host pattern (wildcards only as a whole label in front: *.example.com)`);
  if (suffix && parseIp(name)) throw new Error(`URL rule ${text}: use an address range, not *. in front of an address`);
  return { host: suffix ? { kind: 'suffix', name } : { kind: 'exact', name }, port: p };
}

function pathGlob(glob: string, text: string): { re: RegExp; withQuery: boolean } {
  if (!glob.startsWith('/') || glob.includes('#')) throw new Error(`URL rule ${text}: the path must start with / and hold no #`);
  // Written the way canonical URLs are (é as %C3%A9, `..` resolved), so globs compare like with like.
  const u = new URL(`http://h${glob}`);
  const p = u.pathname + u.search;
  const all = p.endsWith('/**');
  const body = all ? p.slice(0, -3) : p;
  const re = body.split(/(\*\*|\*)/).map((t) => (t === '**' ? '.*' : t === '*' ? '[^/]*' : t.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))).join('');
  return { re: new RegExp(`^${re}${all ? '(?:/.*)?' : ''}$`), withQuery: u.search !== '' };
}

export function matches(r: UrlRule, c: CanonicalUrl, deny: boolean): boolean {
  if (r.scheme !== undefined && r.scheme !== c.scheme) return false;
  // A deny entry for an IPv4 address also catches it inside an IPv6 one (NAT64, 6to4, compatible).
  const ip = parseIp(c.host);
  const inner = deny && ip ? embeddedIPv4(ip) : undefined;
  const hosts = inner ? [c.host, formatIPv4(inner.value)] : [c.host];
  if (r.cidr) {
    const cidr = r.cidr;
    return hosts.some((h) => {
      const a = parseIp(h);
      return a !== undefined && inCidr(a, cidr);
    });
  }
  if (r.host && !hosts.some((h) => hostMatches(r.host!, h))) return false;
  if (r.port === 'default' ? c.port !== DEFAULT_PORTS[c.scheme] : typeof r.port === 'number' && c.port !== r.port) return false;
  if (r.path) {
    const re = r.path.re;
    const variants = pathVariants(c, r.path.withQuery);
    return deny ? variants.some((v) => re.test(v)) : variants.every((v) => re.test(v));
  }
  return true;
}

function hostMatches(p: HostPattern, host: string): boolean {
  if (p.kind === 'any') return host !== '';
  if (p.kind === 'exact') return host === p.name;
  return host.endsWith(`.${p.name}`) && !parseIp(host);
}

/** Whether a matching allow entry names this non-public host, rather than matching it by a wildcard. */
export function namesHost(r: UrlRule, np: NonPublic): boolean {
  if (r.cidr) return np.kind !== 'cloud metadata' || isSingleAddress(r.cidr);
  if (r.host?.kind === 'exact') return true;
  return r.host?.kind === 'suffix' && np.kind !== 'cloud metadata';
}

/**
 * The path as sent and, when it differs, with `%2e`, `%2f`, `%5c` (and `%25` before them) decoded,
 * backslashes as slashes and dot segments resolved — what a server that decodes before routing sees.
 * Allow globs must match every variant, deny globs any.
 */
function pathVariants(c: CanonicalUrl, withQuery: boolean): string[] {
  const raw = c.path + (withQuery ? c.query : '');
  let decoded = raw;
  for (let i = 0; i < 5 && /%(?:25|2e|2f|5c)/i.test(decoded); i++) {
    decoded = decoded.replace(/%(25|2e|2f|5c)/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  }
  if (decoded === raw) return [raw];
  const u = new URL(`http://h${decoded.replace(/\\/g, '/').replace(/^(?!\/)/, '/')}`);
  return [raw, u.pathname + (withQuery ? u.search : '')];
}
