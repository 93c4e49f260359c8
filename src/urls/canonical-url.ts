import { embeddedIPv4, formatIPv4, parseIp } from './ip-address.js';
import { parserInput } from './parser-input.js';

/** A URL as the rules see it: where a request would go, with nothing that could disguise it. */
export interface CanonicalUrl {
  /** `scheme://host[:port]/path?query` — no userinfo (it is not part of the destination, and may be a secret) and no fragment (never sent). */
  href: string;
  /** Lower case, without the colon: `https`. */
  scheme: string;
  /** Lower-case ASCII (IDNA as punycode), no trailing dot; IPv4 dotted; IPv6 bracketed; '' for `mailto:` and the like. */
  host: string;
  /** The port, or the scheme's default when the URL names none; undefined when neither is known. */
  port: number | undefined;
  /** Path, percent-encoded as the WHATWG parser leaves it, with `.` and `..` resolved. */
  path: string;
  /** The query with its `?`, or ''. */
  query: string;
  /** Whether the URL carried `user[:password]@` (recognised, and left out of `href`). */
  userinfo: boolean;
}

export type CanonicalUrlResult = ({ ok: true } & CanonicalUrl) | { ok: false; reason: string };

export const DEFAULT_PORTS: Readonly<Record<string, number>> = { http: 80, https: 443, ws: 80, wss: 443, ftp: 21, gopher: 70 };

/**
 * The canonical form of an absolute URL, or why there is none. The WHATWG parser (the one browsers and
 * Node's fetch use) does most of the work: scheme and host case, IDNA, percent-encoded hosts, backslashes as
 * slashes, userinfo, IPv4 in decimal, octal, hex and short forms, IPv6 compression, default ports, `..`.
 * On top of it: hosts of non-special schemes (`gopher:`, `dict:`), which it leaves opaque, are parsed as
 * http hosts are, since their clients resolve them the same way; trailing dots go (`localhost.`); an
 * IPv4-mapped IPv6 address becomes its IPv4 address; and a URL whose host an RFC 3986 parser (Python's
 * urllib, curl, Go) would read differently — `http://allowed.example\@evil.example/` — is refused, since the
 * tool behind the gateway may use one. Both read the text as a parser does (see parserInput): without tabs
 * and newlines, and without control characters and spaces around it.
 */
export function canonicalUrl(raw: string): CanonicalUrlResult {
  const text = parserInput(raw);
  let u: URL;
  try {
    u = new URL(text);
  } catch {
    return { ok: false, reason: 'not a valid absolute URL' };
  }
  const scheme = u.protocol.slice(0, -1);
  let host = '';
  if (u.hostname !== '') {
    const h = canonicalHost(u.hostname);
    if (h === undefined) return { ok: false, reason: `${JSON.stringify(u.hostname)} is not a valid host` };
    host = h;
    const other = rfc3986Host(text);
    if (other !== undefined && other !== host) return { ok: false, reason: `parsers disagree on its host (${host} or ${other})` };
  }
  const explicit = u.port === '' ? undefined : Number(u.port);
  const port = explicit ?? DEFAULT_PORTS[scheme];
  const shownPort = explicit !== undefined && explicit !== DEFAULT_PORTS[scheme] ? `:${explicit}` : '';
  const authority = u.href.startsWith(`${u.protocol}//`);
  const href = authority ? `${scheme}://${host}${shownPort}${u.pathname}${u.search}` : `${scheme}:${u.pathname}${u.search}`;
  return { ok: true, href, scheme, host, port, path: u.pathname, query: u.search, userinfo: u.username !== '' || u.password !== '' };
}

/**
 * A host as http URLs read it — `0x7f.1` → `127.0.0.1`, `EXAMPLE.com.` → `example.com`,
 * `[::ffff:a9fe:a9fe]` → `169.254.169.254`, `bücher.example` → `xn--bcher-kva.example` — or undefined when
 * it is not one (empty, or with characters a host cannot hold).
 */
export function canonicalHost(raw: string): string | undefined {
  let host = raw;
  for (let i = 0; i < 4; i++) {
    let u: URL;
    try {
      u = new URL(`http://${host}/`);
    } catch {
      return undefined;
    }
    if (u.username !== '' || u.password !== '' || u.port !== '' || u.pathname !== '/' || u.search !== '' || u.hash !== '') return undefined;
    // Trailing dots name the same host (`localhost.`); stripping them can make an IPv4 address (`127.0.0.1..`), so parse again.
    const stripped = u.hostname.startsWith('[') ? u.hostname : u.hostname.replace(/\.+$/, '');
    if (stripped === '') return undefined;
    if (stripped === host) break;
    host = stripped;
  }
  const ip = parseIp(host);
  const inner = ip && embeddedIPv4(ip);
  return inner?.how === 'mapped' ? formatIPv4(inner.value) : host;
}

/**
 * The host as RFC 3986 reads it: the authority runs to the first `/`, `?` or `#` (a backslash is an ordinary
 * character) and the host follows its last `@`. Undefined when that reading yields no valid host — such a
 * client fails rather than going somewhere else.
 */
function rfc3986Host(text: string): string | undefined {
  const m = /^[a-z][a-z0-9+.-]*:[\\/]*([^/?#]*)/i.exec(text);
  if (!m) return undefined;
  let host = m[1].slice(m[1].lastIndexOf('@') + 1);
  host = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:[^:]*$/, '');
  return host === '' ? undefined : canonicalHost(host);
}
