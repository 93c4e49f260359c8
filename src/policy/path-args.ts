import type { Params } from '../protocol/jsonrpc.js';
import { isRecord, nameSaysPath, schemaSaysPath, type PathMark } from './path-names.js';

/** Where a path sits in the arguments: a chain of keys and array indexes. */
export type ArgPath = (string | number)[];

/**
 * Every argument that carries a path: by its name (at any depth, and each element of an array), by what the
 * tool's input schema says of it (its `format`, its description or title; nested properties and array items
 * too), or by selectors from config (`a.b`, `items[].file`). `uri`-formatted strings count only when they are
 * `file:` URLs.
 */
export function findPathArgs(args: Params, inputSchema: Params | undefined, selectors: readonly string[] = []): ArgPath[] {
  const found = new Map<string, ArgPath>();
  const add = (p: ArgPath) => found.set(JSON.stringify(p), p);

  const walk = (value: unknown, at: ArgPath, schema: unknown, mark: PathMark | undefined) => {
    if (typeof value === 'string') {
      if (mark === 'path' || (mark === 'file-uri' && /^file:/i.test(value))) add(at);
      return;
    }
    if (Array.isArray(value)) {
      const items = isRecord(schema) ? schema.items : undefined;
      const each = mark ?? schemaSaysPath('', items);
      value.forEach((v, i) => walk(v, [...at, i], items, each));
    } else if (isRecord(value)) {
      const props = isRecord(schema) && isRecord(schema.properties) ? schema.properties : undefined;
      for (const [k, v] of Object.entries(value)) {
        const own = props && Object.hasOwn(props, k) ? props[k] : undefined;
        walk(v, [...at, k], own, nameSaysPath(k) ? 'path' : schemaSaysPath(k, own));
      }
    }
  };
  walk(args, [], inputSchema, undefined);
  for (const selector of selectors) for (const p of select(args, selector)) add(p);
  return [...found.values()];
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
  const copy = (v: unknown): Record<string | number, unknown> => (Array.isArray(v) ? [...(v as unknown[])] : { ...(v as object) }) as Record<string | number, unknown>;
  const root = copy(args);
  let node = root;
  for (let i = 0; i < at.length - 1; i++) {
    node[at[i]] = copy(node[at[i]]);
    node = node[at[i]] as Record<string | number, unknown>;
  }
  node[at[at.length - 1]] = value;
  return root;
}
