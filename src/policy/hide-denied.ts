import path from 'node:path';
import type { Params } from '../protocol/jsonrpc.js';
import { isWithin, type Hidden } from './denied-below.js';
import type { ArgPath } from './path-args.js';
import { isRecord } from './path-names.js';
import { pathMatches } from './paths.js';

/** What separates names in listings: a denied name is found as a whole token between these. */
const BOUNDARY = /[\s/\\"'`[\](){},:;=|<>]+/;

/**
 * The arguments of a read, besides its paths, that could make what it returns depend on names it may not show —
 * a search pattern, a query, a limit — named by their top-level key. Such a read of a folder above denied
 * paths is refused: even with the names filtered out, whether it matched would tell them. Enumerated strings
 * (a sort order), booleans and empty values cannot.
 */
export function searchArguments(args: Params, pathArgs: readonly ArgPath[], schema: Params | undefined): string[] {
  const paths = new Set(pathArgs.map((p) => JSON.stringify(p)));
  const found = new Set<string>();
  const walk = (value: unknown, at: ArgPath, node: unknown) => {
    if (paths.has(JSON.stringify(at)) || value === null || typeof value === 'boolean' || value === '') return;
    if (typeof value === 'string' || typeof value === 'number') {
      if (!(isRecord(node) && Array.isArray(node.enum) && node.enum.includes(value))) found.add(String(at[0]));
    } else if (Array.isArray(value)) {
      value.forEach((v, i) => walk(v, [...at, i], isRecord(node) ? node.items : undefined));
    } else if (isRecord(value)) {
      const props = isRecord(node) && isRecord(node.properties) ? node.properties : undefined;
      for (const [k, v] of Object.entries(value)) walk(v, [...at, k], props && Object.hasOwn(props, k) ? props[k] : undefined);
    } else {
      found.add(String(at[0]));
    }
  };
  walk(args, [], schema);
  return [...found];
}

/**
 * The result of a read of folders above denied paths with every mention of a denied entry taken out: lines
 * of a listing or search that name one (by its full path, or relative to the folder), and entries of a JSON
 * tree (`name` / `children`, as server-filesystem's directory_tree) that are one. Then, failing closed: if any
 * string of the result still holds a denied entry's name as a whole token, `leaked` says so and the result
 * must be withheld.
 */
export function hideDenied(result: Params, hidden: readonly Hidden[], deny: readonly string[]): { result: Params; leaked: boolean } {
  let out: unknown = result;
  for (const h of hidden) {
    const isHidden = hiddenTest(h, deny);
    out = mapStrings(out, (text) => filterText(text, h.dir, isHidden));
  }
  return { result: out as Params, leaked: mentionsAny(out, hidden) };
}

/** Whether a path is, or lies below, a denied entry of `h`, or is denied by a rule. */
function hiddenTest(h: Hidden, deny: readonly string[]): (p: string) => boolean {
  const entries = new Set(h.entries);
  return (p) => {
    if (pathMatches(deny, p)) return true;
    for (let at = p; isWithin(at, h.dir) && at !== h.dir; at = path.dirname(at)) if (entries.has(at)) return true;
    return false;
  };
}

function filterText(text: string, dir: string, isHidden: (p: string) => boolean): string {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      const parsed: unknown = JSON.parse(text);
      const filtered = filterJson(parsed, dir, isHidden);
      if (JSON.stringify(filtered) === JSON.stringify(parsed)) return text;
      return text.includes('\n') ? JSON.stringify(filtered, null, 2) : JSON.stringify(filtered);
    } catch {
      // Not JSON after all: filtered as lines.
    }
  }
  return text
    .split('\n')
    .filter((line) => !candidates(line).some((c) => isHidden(resolveIn(dir, c))))
    .join('\n');
}

/** A JSON tree of entries (`{ name, children }`), or a list of paths, without the denied ones. */
function filterJson(node: unknown, dir: string, isHidden: (p: string) => boolean): unknown {
  if (Array.isArray(node)) {
    return node
      .filter((item) => {
        if (typeof item === 'string') return !isHidden(resolveIn(dir, item));
        return !(isRecord(item) && typeof item.name === 'string' && isHidden(resolveIn(dir, item.name)));
      })
      .map((item) => (isRecord(item) && typeof item.name === 'string' ? filterJson(item, resolveIn(dir, item.name), isHidden) : filterJson(item, dir, isHidden)));
  }
  if (isRecord(node)) return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, filterJson(v, dir, isHidden)]));
  return node;
}

/**
 * What in one line of a listing could be a path: the line, the line after a `[DIR]`-style marker, its first
 * column (names padded before a size), and each word.
 */
function candidates(line: string): string[] {
  const whole = line.trim();
  const unmarked = whole.replace(/^\[[A-Z]+\]\s*/, '');
  const column = unmarked.split(/\s{2,}|\t/)[0];
  return [whole, unmarked, column, ...whole.split(/\s+/)].filter((c) => c !== '');
}

function resolveIn(dir: string, name: string): string {
  const p = path.isAbsolute(name) ? path.normalize(name) : path.join(dir, name);
  return p.length > 1 ? p.replace(/\/+$/, '') : p;
}

/** Every string in a JSON value replaced by `fn` of it (objects and arrays copied). */
function mapStrings(value: unknown, fn: (s: string) => string): unknown {
  if (typeof value === 'string') return fn(value);
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, fn));
  if (isRecord(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, fn)]));
  return value;
}

/**
 * Whether any string in `value` holds the name of a hidden entry as a whole word: a token between separators,
 * give or take punctuation at its ends ("plan.txt!"), or for a name with spaces in it, a bounded occurrence.
 */
function mentionsAny(value: unknown, hidden: readonly Hidden[]): boolean {
  const names = new Set<string>();
  const spaced: string[] = [];
  for (const h of hidden) {
    for (const e of h.entries) {
      const name = path.basename(e);
      if (BOUNDARY.test(name)) spaced.push(name);
      else names.add(name);
    }
  }
  const named = (t: string) => names.has(t) || names.has(t.replace(/^[.!?*]+|[.!?*]+$/g, ''));
  const found = (s: string) => s.split(BOUNDARY).some(named) || spaced.some((n) => boundedIn(s, n));
  const walk = (v: unknown): boolean => (typeof v === 'string' ? found(v) : Array.isArray(v) ? v.some(walk) : isRecord(v) ? Object.values(v).some(walk) : false);
  return walk(value);
}

/** `name` occurs in `s` with a separator, punctuation or an end of the text on each side. */
function boundedIn(s: string, name: string): boolean {
  const edge = (c: string | undefined) => c === undefined || !/[\p{L}\p{N}\p{M}_-]/u.test(c);
  for (let i = s.indexOf(name); i !== -1; i = s.indexOf(name, i + 1)) {
    if (edge(s[i - 1]) && edge(s[i + name.length])) return true;
  }
  return false;
}
