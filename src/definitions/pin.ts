import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** What a server defines that a client shows the model, and so what is pinned. */
export type DefinitionKind = 'tool' | 'prompt' | 'resource' | 'resource-template' | 'instructions';

/**
 * The pin of one definition: SHA-256 over the canonical JSON (RFC 8785) of the whole definition as the server
 * sent it — name, title, description, schemas, annotations, icons, `_meta` — so any change to anything a
 * client may show gives a new pin, and key order or whitespace never does.
 */
export function pinOf(kind: DefinitionKind, definition: unknown): string {
  return createHash('sha256').update(canonicalJson({ kind, definition })).digest('hex');
}

/** Where a pin is kept: one per server, kind and name. */
export function pinKey(server: string, kind: DefinitionKind, name: string): string {
  return `${server}\u0000${kind}\u0000${name}`;
}

export interface PinChange {
  key: string;
  change: 'added' | 'changed' | 'removed';
  before?: string;
  after?: string;
}

/** What differs between the pins on record and the definitions seen now, in key order. */
export function comparePins(pinned: ReadonlyMap<string, string>, current: ReadonlyMap<string, string>): PinChange[] {
  const changes: PinChange[] = [];
  for (const [key, after] of current) {
    const before = pinned.get(key);
    if (before === undefined) changes.push({ key, change: 'added', after });
    else if (before !== after) changes.push({ key, change: 'changed', before, after });
  }
  for (const [key, before] of pinned) if (!current.has(key)) changes.push({ key, change: 'removed', before });
  return changes.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
