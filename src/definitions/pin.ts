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
