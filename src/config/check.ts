import type { z } from 'zod';
import { crossCheck } from './cross-check.js';
import { configSchema, type ConfigInput } from './schema.js';

/** One problem in a config, by where it sits in the file's shape (the loader adds line and column). */
export interface KeyedProblem {
  /** The path of the value to point at. */
  path: PropertyKey[];
  /** Point at this key under `path` rather than at a value (unknown keys, bad names). */
  atKey?: string;
  /** Dotted path of the offending key, e.g. `mcpServers.files.mode`. */
  key: string;
  message: string;
}

export type CheckedConfig = { ok: true; config: z.output<typeof configSchema> } | { ok: false; problems: KeyedProblem[] };

/**
 * Checks a config in the file's shape against the schema, then the checks that need the whole file. Both run,
 * so one pass reports everything it can. Value problems at a key in `reported` (already reported by the
 * caller, e.g. an unset variable) are left out.
 */
export function checkConfig(input: unknown, reported: ReadonlySet<string> = new Set()): CheckedConfig {
  const problems: KeyedProblem[] = [];
  const parsed = configSchema.safeParse(input ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          problems.push({ path: issue.path, atKey: key, key: [...issue.path, key].join('.'), message: `unknown key; allowed: ${allowedKeys(issue.path)}` });
        }
      } else if (issue.code === 'invalid_key') {
        // A bad record key (a server name): point at the key itself, with the rule it broke.
        const key = String(issue.path[issue.path.length - 1]);
        problems.push({ path: issue.path.slice(0, -1), atKey: key, key: issue.path.join('.'), message: `invalid name: ${issue.issues[0]?.message ?? issue.message}` });
      } else if (!reported.has(issue.path.join('.'))) {
        problems.push({ path: issue.path, key: issue.path.join('.'), message: describeIssue(issue) });
      }
    }
  }
  let cross: ReturnType<typeof crossCheck> = [];
  try {
    cross = crossCheck((input ?? {}) as ConfigInput);
  } catch {
    // The file is too malformed for cross-checks; the schema's problems say why.
  }
  for (const p of cross) {
    const key = [...p.path, ...(p.key ? [p.key] : [])].join('.');
    if (!reported.has(key)) problems.push({ path: p.path, atKey: p.key, key, message: p.message });
  }
  return parsed.success && problems.length === 0 ? { ok: true, config: parsed.data } : { ok: false, problems };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `invalid value; allowed: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_type': {
      const received = /received (\w+)/.exec(issue.message)?.[1];
      return received === 'undefined' ? `required (${issue.expected})` : `expected ${issue.expected}${received ? `, got ${received}` : ''}`;
    }
    default:
      return issue.message;
  }
}

/** The keys allowed at a path, for "unknown key" messages; read from the schema so they never drift. */
function allowedKeys(keyPath: PropertyKey[]): string {
  let shape: unknown = configSchema;
  for (const key of keyPath) {
    const def = unwrap(shape);
    if (def?.shape) shape = def.shape[key as string];
    else if (def?.valueType) shape = def.valueType;
    else return '?';
  }
  const def = unwrap(shape);
  return def?.shape ? Object.keys(def.shape).join(', ') : '?';
}

interface SchemaLike {
  shape?: Record<string, unknown>;
  valueType?: unknown;
}
/** The object or record under a schema's wrappers (optional, default, the input side of a transform). */
function unwrap(schema: unknown): SchemaLike | undefined {
  let s = schema as { def?: { innerType?: unknown; in?: unknown; type?: string; valueType?: unknown; shape?: Record<string, unknown> } } | undefined;
  for (let i = 0; i < 8 && s?.def; i++) {
    if (s.def.type === 'object') return { shape: s.def.shape };
    if (s.def.type === 'record') return { valueType: s.def.valueType };
    s = (s.def.innerType ?? s.def.in) as typeof s;
  }
  return undefined;
}
