import type { Params } from '../protocol/jsonrpc.js';

/** Argument names that carry a file system path in the tools people actually run. */
const PATH_KEYS = new Set([
  'path', 'paths', 'file', 'files', 'filename', 'filenames', 'filepath', 'file_path', 'filePath', 'source', 'sources',
  'destination', 'dest', 'src', 'target', 'directory', 'directories', 'dir', 'folder', 'root', 'cwd', 'workdir',
]);

/** JSON Schema `format` values that mean "this string is a path". */
const PATH_FORMATS = new Set(['path', 'file-path', 'filepath', 'directory', 'uri', 'uri-reference', 'iri']);

/** Where a path sits in the arguments: a chain of keys and array indexes. */
export type ArgPath = (string | number)[];

/**
 * Every argument that carries a path: by key name (at any depth, and each element of an array), by the
 * tool's schema `format`, or by selectors from config (`a.b`, `items[].file`). `uri`-formatted strings count
 * only when they are `file:` URLs.
 */
export function findPathArgs(args: Params, inputSchema: Params | undefined, selectors: readonly string[] = []): ArgPath[] {
  const found = new Map<string, ArgPath>();
  const add = (p: ArgPath) => found.set(JSON.stringify(p), p);
  const formats = schemaPathKeys(inputSchema);

  const walk = (value: unknown, at: ArgPath, byName: boolean) => {
    if (typeof value === 'string') {
      if (byName) add(at);
      return;
    }
    if (Array.isArray(value)) value.forEach((v, i) => walk(v, [...at, i], byName));
    else if (value !== null && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) {
        const viaFormat = at.length === 0 && formats.has(k) && (formats.get(k) !== 'uri' || (typeof v === 'string' && /^file:/i.test(v)));
        walk(v, [...at, k], PATH_KEYS.has(k) || viaFormat);
      }
    }
  };
  walk(args, [], false);
  for (const selector of selectors) for (const p of select(args, selector)) add(p);
  return [...found.values()];
}

/** Top-level properties whose schema declares a path-like format, with that format. */
function schemaPathKeys(schema: Params | undefined): Map<string, string> {
  const out = new Map<string, string>();
  const props = schema?.properties as Record<string, { format?: unknown; items?: { format?: unknown } }> | undefined;
  if (!props || typeof props !== 'object') return out;
  for (const [k, s] of Object.entries(props)) {
    const format = typeof s?.format === 'string' ? s.format : typeof s?.items?.format === 'string' ? s.items.format : undefined;
    if (format && PATH_FORMATS.has(format)) out.set(k, format.startsWith('uri') || format === 'iri' ? 'uri' : 'path');
  }
  return out;
}

/** Resolves a selector such as `options.location` or `items[].file` to the string values it names. */
function select(args: Params, selector: string): ArgPath[] {
  return selectValues(args, selector)
    .filter((f) => typeof f.value === 'string')
    .map((f) => f.at);
}

/** The values a selector such as `options.location` or `items[].file` names, whatever their type, with where they are. */
export function selectValues(args: Params, selector: string): { value: unknown; at: ArgPath }[] {
  let frontier: { value: unknown; at: ArgPath }[] = [{ value: args, at: [] }];
  for (const part of selector.split('.')) {
    const each = part.endsWith('[]');
    const key = each ? part.slice(0, -2) : part;
    const next: typeof frontier = [];
    for (const { value, at } of frontier) {
      if (value === null || typeof value !== 'object' || !Object.hasOwn(value, key)) continue;
      const v = (value as Record<string, unknown>)[key];
      if (each && Array.isArray(v)) v.forEach((item, i) => next.push({ value: item, at: [...at, key, i] }));
      else if (!each) next.push({ value: v, at: [...at, key] });
    }
    frontier = next;
  }
  return frontier;
}

export function getAt(args: Params, at: ArgPath): unknown {
  return at.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)?.[k], args);
}

/** A copy of `args` with the value at `at` replaced (the original is left untouched). */
export function setAt(args: Params, at: ArgPath, value: unknown): Params {
  const copy = (v: unknown): Record<string | number, unknown> => (Array.isArray(v) ? [...v] : { ...(v as object) }) as Record<string | number, unknown>;
  const root = copy(args);
  let node = root;
  for (let i = 0; i < at.length - 1; i++) {
    node[at[i]] = copy(node[at[i]]);
    node = node[at[i]] as Record<string | number, unknown>;
  }
  node[at[at.length - 1]] = value;
  return root as Params;
}
