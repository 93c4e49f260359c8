import { createHash } from 'node:crypto';

/** The strictest limit clients put on tool names (OpenAI, Anthropic, Gemini agree on this much). */
export const MAX_NAME = 64;
const VALID = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * The merged name of a tool or prompt: `<prefix><separator><name>`, or the bare name when the prefix is empty.
 * Characters outside [A-Za-z0-9_-] become `_`; a name longer than 64 keeps its start and ends in a hash of the
 * full name, so the shortening is deterministic and two long names with a common start stay apart.
 */
export function mergedName(prefix: string, separator: string, name: string): string {
  const full = prefix === '' ? name : `${prefix}${separator}${name}`;
  if (VALID.test(full)) return full;
  // Replacing characters could make two names equal ("a.b" and "a/b"); the hash of the full name keeps them apart.
  const clean = full.replace(/[^A-Za-z0-9_-]/g, '_');
  const hash = createHash('sha256').update(full).digest('hex').slice(0, 8);
  return `${clean.slice(0, MAX_NAME - 9)}_${hash}`;
}
