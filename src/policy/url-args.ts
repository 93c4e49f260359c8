import type { Params } from '../protocol/jsonrpc.js';
import { selectValues, type ArgPath } from './path-args.js';

/**
 * Which strings under keys that are not URL keys count:
 * - `off`: none;
 * - `values` (the default): a whole value that is an absolute URL (`q: "http://169.254.169.254/"`);
 * - `embedded`: also every URL inside longer text (`q: "fetch http://169.254.169.254/ now"`).
 * `embedded` is not the default because content — a file being written, a message being sent — mentions
 * `http://localhost:3000` or `postgres://db/app` without asking anyone to fetch it; turn it on for roles
 * whose tools read instructions out of free text (a browsing agent, a "do this" tool).
 */
export type FreeText = 'off' | 'values' | 'embedded';

/** A URL found in the arguments: where, the text to check, and why it counts. */
export interface UrlArg {
  at: ArgPath;
  url: string;
  via: 'key' | 'format' | 'selector' | 'text';
}

/** Keys whose value is a URL even without a scheme (compared without case, `_` or `-`), and any key ending in one of the suffixes. */
const URL_KEYS = new Set(['url', 'urls', 'uri', 'uris', 'href', 'hrefs', 'endpoint', 'endpoints', 'webhook', 'webhooks']);
const URL_KEY_SUFFIX = /(?:url|urls|uri|uris|endpoint)$/;
/** Keys that often hold a URL but as often a path or a name: a value counts when it is an absolute URL. */
const LINK_KEYS = new Set(['link', 'links', 'src', 'source', 'sources', 'target', 'targets', 'dest', 'destination', 'location', 'website', 'homepage', 'redirect', 'proxy']);
/** JSON Schema `format` values that mean "this string is a URL". */
const URL_FORMATS = new Set(['uri', 'url', 'uri-reference', 'iri', 'iri-reference']);

/** Schemes the WHATWG parser reads with any number of slashes or backslashes, even none (`http:evil.example`). */
const SPECIAL = new Set(['http', 'https', 'ws', 'wss', 'ftp', 'file']);
/** A scheme of two letters or more (one letter is a Windows drive), its colon and whatever slashes follow. */
const SCHEME_START = /(?<![a-z0-9+.-])([a-z][a-z0-9+.-]+):([\\/]*)/;

/**
 * Every URL in the arguments: by key name (`url`, `uri`, `endpoint`, `href`, `*Url`, `*_uri`… at any depth
 * and each element of an array), by the tool's schema (`format: uri | url | uri-reference | iri`, at any
 * depth, `items` included), by selectors from config (`options.location`, `items[].file`), and — since a
 * model can put a URL anywhere — strings under any other key, as `freeText` says. A scheme-less value under
 * a URL key, a URL format or a selector (`169.254.169.254/latest`) is checked as `https://` + value, since
 * fetch tools commonly add the scheme themselves; `//host/x` likewise. Relative references (`/x`, `./x`,
 * `?q`, `#f`) have no host of their own and are skipped.
 */
export function findUrlArgs(args: Params, inputSchema: Params | undefined, selectors: readonly string[] = [], options: { freeText?: FreeText } = {}): UrlArg[] {
  const freeText = options.freeText ?? 'values';
  const found = new Map<string, UrlArg>();
  const add = (at: ArgPath, url: string, via: UrlArg['via']) => {
    const key = JSON.stringify([at, url]);
    if (!found.has(key)) found.set(key, { at, url, via });
  };

  const walk = (value: unknown, at: ArgPath, schema: unknown, by: 'key' | 'format' | 'link' | undefined) => {
    if (typeof value === 'string') {
      const strong = by === 'key' || by === 'format';
      if (strong) {
        const url = asUrl(value);
        if (url) add(at, url, by);
      }
      const mode = freeText === 'embedded' ? 'embedded' : by === 'link' || (!strong && freeText === 'values') ? 'values' : 'off';
      for (const url of urlsInText(value, mode)) add(at, url, by === 'link' ? 'key' : 'text');
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => {
        const s = child(schema, i);
        walk(v, [...at, i], s, hasUrlFormat(s) ? 'format' : by);
      });
    } else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const s = child(schema, k);
        walk(v, [...at, k], s, hasUrlFormat(s) ? 'format' : keyKind(k));
      }
    }
  };
  walk(args, [], inputSchema, undefined);
  for (const selector of selectors) {
    for (const { at, value } of select(args, selector)) {
      const url = asUrl(value);
      if (url) add(at, url, 'selector');
    }
  }
  return [...found.values()];
}

function keyKind(key: string): 'key' | 'link' | undefined {
  const k = key.toLowerCase().replace(/[-_]/g, '');
  if (URL_KEYS.has(k) || URL_KEY_SUFFIX.test(k)) return 'key';
  return LINK_KEYS.has(k) ? 'link' : undefined;
}

/** The value of a URL key as the URL to check: as it is when it has a scheme, `https:`-prefixed when it has none, nothing when it is relative. */
function asUrl(value: string): string | undefined {
  const v = value.trim();
  if (v === '' || /^[.?#]/.test(v) || /^[/\\](?![/\\])/.test(v)) return undefined;
  // `localhost:3000` is a host and port, not the scheme `localhost:`.
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(v)) return v;
  return /^[/\\]{2}/.test(v) ? `https:${v}` : `https://${v}`;
}

/**
 * Absolute URLs in a string. `values`: the string itself when, trimmed, it starts with one — the whole
 * value if it parses (the WHATWG parser drops tabs and newlines inside, as a tool's would), else the URLs
 * in it; `embedded`: every URL anywhere in it, URLs inside URLs' queries included.
 */
export function urlsInText(text: string, mode: FreeText): string[] {
  if (mode === 'off') return [];
  const trimmed = text.trim();
  if (mode === 'values') {
    const first = scan(trimmed, true);
    if (first.length === 0) return [];
    return URL.canParse(trimmed) ? [trimmed] : scan(trimmed, false);
  }
  return scan(trimmed, false);
}

function scan(text: string, atStartOnly: boolean): string[] {
  const out: string[] = [];
  const re = new RegExp(SCHEME_START.source, 'gi');
  for (let m = re.exec(text); m; m = re.exec(text)) {
    if (atStartOnly && m.index !== 0) break;
    const [, scheme, slashes] = m;
    const rest = /^[^\s<>"'`]*/.exec(text.slice(re.lastIndex))![0].replace(/[.,;:!?)\]}*]+$/, '');
    const isUrl = rest !== '' && (slashes.length >= 2 || SPECIAL.has(scheme.toLowerCase()));
    if (isUrl) out.push(`${text.slice(m.index, re.lastIndex)}${rest}`);
    if (atStartOnly) break;
  }
  return out;
}

/** The schema for a property or an array element, looked up as own properties only (schemas come from upstreams). */
function child(schema: unknown, key: string | number): unknown {
  if (schema === null || typeof schema !== 'object') return undefined;
  const s = schema as Record<string, unknown>;
  if (typeof key === 'string') {
    const props = s.properties;
    return props !== null && typeof props === 'object' && Object.hasOwn(props, key) ? (props as Record<string, unknown>)[key] : undefined;
  }
  const tuple = Array.isArray(s.prefixItems) ? s.prefixItems : Array.isArray(s.items) ? s.items : undefined;
  return tuple ? tuple[key] : s.items;
}

function hasUrlFormat(schema: unknown): boolean {
  if (schema === null || typeof schema !== 'object') return false;
  const s = schema as Record<string, unknown>;
  if (typeof s.format === 'string' && URL_FORMATS.has(s.format)) return true;
  return [s.anyOf, s.oneOf].some((alts) => Array.isArray(alts) && alts.some((a) => a !== null && typeof a === 'object' && URL_FORMATS.has((a as { format?: unknown }).format as string)));
}

/** Resolves a selector such as `options.location` or `items[].file` to the strings it names (each string of an array it ends on). */
function select(args: Params, selector: string): { at: ArgPath; value: string }[] {
  const out: { at: ArgPath; value: string }[] = [];
  for (const { value, at } of selectValues(args, selector)) {
    if (typeof value === 'string') out.push({ at, value });
    else if (Array.isArray(value)) value.forEach((v, i) => typeof v === 'string' && out.push({ at: [...at, i], value: v }));
  }
  return out;
}
