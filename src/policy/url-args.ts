import type { Params } from '../protocol/jsonrpc.js';
import { parserInput } from '../urls/parser-input.js';
import { selectValues, type ArgPath } from './path-args.js';
import { urlsInText, type FreeText } from './urls-in-text.js';

export type { FreeText } from './urls-in-text.js';

/** A URL found in the arguments: where, the text to check, and why it counts; or, with `unchecked`, a string that holds more URLs than can be checked. */
export interface UrlArg {
  at: ArgPath;
  url: string;
  via: 'key' | 'format' | 'selector' | 'text';
  unchecked?: string;
}

/** Keys whose value is a URL even without a scheme (compared without case, `_` or `-`), and any key ending in one of the suffixes. */
const URL_KEYS = new Set(['url', 'urls', 'uri', 'uris', 'href', 'hrefs', 'endpoint', 'endpoints', 'webhook', 'webhooks']);
const URL_KEY_SUFFIX = /(?:url|urls|uri|uris|endpoint)$/;
/** Keys that often hold a URL but as often a path or a name: a value counts when it is an absolute URL. */
const LINK_KEYS = new Set(['link', 'links', 'src', 'source', 'sources', 'target', 'targets', 'dest', 'destination', 'location', 'website', 'homepage', 'redirect', 'proxy']);
/** JSON Schema `format` values that mean "this string is a URL". */
const URL_FORMATS = new Set(['uri', 'url', 'uri-reference', 'iri', 'iri-reference']);

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
      const inText = urlsInText(value, mode);
      for (const url of inText.urls) add(at, url, by === 'link' ? 'key' : 'text');
      if (!inText.complete) found.set(JSON.stringify([at]), { at, url: '', via: 'text', unchecked: 'it holds more URLs inside URLs than can be checked' });
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

/** The value of a URL key as the URL to check: as a parser reads it when it has a scheme, `https:`-prefixed when it has none, nothing when it is relative. */
function asUrl(value: string): string | undefined {
  const v = parserInput(value);
  if (v === '' || /^[.?#]/.test(v) || /^[/\\](?![/\\])/.test(v)) return undefined;
  // `localhost:3000` is a host and port, not the scheme `localhost:`.
  if (/^[a-z][a-z0-9+.-]*:(?!\d)/i.test(v)) return v;
  return /^[/\\]{2}/.test(v) ? `https:${v}` : `https://${v}`;
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
