import type { Params } from '../protocol/jsonrpc.js';
import { canonicalUrl } from '../urls/canonical-url.js';

import { nonPublicHost } from '../urls/non-public-host.js';
import { matches, namesHost, parseUrlRule, type UrlRule } from '../urls/url-rule.js';
import { findPathArgs } from './path-args.js';
import { findUrlArgs, type FreeText } from './url-args.js';

export interface UrlRules {
  allow: readonly string[];
  deny: readonly string[];
  /** Which strings under other keys count as URLs (see FreeText); default `values`. */
  freeText?: FreeText;
}

export type UrlCheck = { ok: true; urls: string[] } | { ok: false; reason: string; rule?: string };

/** Schemes that pass without an allow entry naming them. */
// `data:` carries its content inline and reaches no host, so it needs no entry either.
export const DEFAULT_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss', 'data']);

/** Schemes whose URLs name a host a server would connect to (for a resource URI or a prompt argument, a fetch). */
export const NETWORK_SCHEMES: ReadonlySet<string> = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'ftps', 'gopher', 'dict', 'ldap', 'ldaps', 'sftp', 'smb', 'tftp', 'telnet']);

const compiled = new Map<string, UrlRule | Error>();
function rule(text: string): UrlRule {
  let r = compiled.get(text);
  if (!r) {
    try {
      r = parseUrlRule(text);
    } catch (err) {
      r = err as Error;
    }
    compiled.set(text, r);
  }
  if (r instanceof Error) throw r;
  return r;
}

/**
 * Checks every URL in the arguments (see findUrlArgs), as a URL parser reads it (see parserInput), against a
 * role's URL rules, in this order:
 * 1. a URL that cannot be canonicalised is refused, and so is a string holding more URLs than can be checked;
 * 2. deny wins: an entry that matches refuses (an address entry also matches the IPv4 address inside an IPv6 one);
 * 3. `file:` URLs are paths: left to the path rules where they see that argument, refused anywhere else
 *    unless an allow entry names `file:`;
 * 4. schemes other than http, https, ws and wss are refused unless a matching allow entry names the scheme;
 * 5. loopback, private, link-local, reserved and cloud-metadata addresses and internal names are refused
 *    unless a matching allow entry names that host or range — an exact host, `*.suffix`, or an address range
 *    holding it; a metadata host only by its exact name or address (`169.254.0.0/16` does not unlock it);
 * 6. with a non-empty allow list, a URL must match one of it.
 * With `only`, URLs of other schemes are left alone (a prompt argument `test://doc` is the server's own name).
 * Host names are judged by name only — no DNS lookup: a lookup here would not bind the one the tool makes
 * later (DNS rebinding, or a name such as `127.0.0.1.nip.io`), so stopping that needs the egress itself
 * pinned (a proxy, or a network policy), which is out of the gateway's reach.
 */
export function checkUrls(args: Params, inputSchema: Params | undefined, selectors: readonly string[] | undefined, rules: UrlRules, pathSelectors?: readonly string[], only?: ReadonlySet<string>): UrlCheck {
  const found = findUrlArgs(args, inputSchema, selectors ?? [], { freeText: rules.freeText });
  if (found.length === 0) return { ok: true, urls: [] };
  let allow: UrlRule[];
  let deny: UrlRule[];
  try {
    allow = rules.allow.map(rule);
    deny = rules.deny.map(rule);
  } catch (err) {
    return { ok: false, reason: `the URL rules cannot be applied: ${(err as Error).message}` };
  }
  let pathArgs: Set<string> | undefined;
  const urls = new Set<string>();
  for (const { at, url, unchecked } of found) {
    const where = at.length === 0 ? 'the arguments' : at.join('.');
    if (unchecked) return { ok: false, reason: `URL argument ${where} cannot be checked: ${unchecked}` };
    const c = canonicalUrl(url);
    if (!c.ok) return { ok: false, reason: `URL argument ${where} cannot be checked: ${c.reason}` };
    // `only`: the caller checks these schemes alone; a URI of the server's own scheme names something, it fetches nothing.
    if (only && !only.has(c.scheme)) continue;
    const denied = deny.find((r) => matches(r, c, true));
    if (denied) return { ok: false, reason: `URL ${c.href} at ${where} is denied`, rule: denied.text };
    const matched = allow.filter((r) => matches(r, c, false));
    if (c.scheme === 'file' && !matched.some((r) => r.scheme === 'file')) {
      pathArgs ??= new Set(findPathArgs(args, inputSchema, pathSelectors).map((p) => JSON.stringify(p)));
      if (pathArgs.has(JSON.stringify(at))) continue;
      return { ok: false, reason: `URL ${c.href} at ${where} is a file: URL, which is a path: the path rules govern files, so it must be a path argument (or an allow entry must name file:)` };
    }
    if (!DEFAULT_SCHEMES.has(c.scheme) && !matched.some((r) => r.scheme === c.scheme)) {
      return { ok: false, reason: `URL ${c.href} at ${where} uses the scheme ${c.scheme}:, which is refused unless an allow entry names it (only http, https, ws, wss and data pass by default)` };
    }
    const np = c.host === '' ? undefined : nonPublicHost(c.host);
    if (np && !matched.some((r) => namesHost(r, np))) {
      const what = np.kind === 'internal name' ? 'an internal name' : `${/^[aeiou]/.test(np.kind) ? 'an' : 'a'} ${np.kind} host`;
      const how = np.kind === 'cloud metadata' ? 'its exact host or address' : 'that host or its address range';
      return { ok: false, reason: `URL ${c.href} at ${where} points at ${what} (${c.host}${np.via ? `, ${np.via}` : ''}), refused unless an allow entry names ${how}` };
    }
    if (allow.length > 0 && matched.length === 0) return { ok: false, reason: `URL ${c.href} at ${where} is outside the allowed URLs`, rule: rules.allow.join(', ') };
    urls.add(c.href);
  }
  return { ok: true, urls: [...urls] };
}
