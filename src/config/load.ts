import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import type { z } from 'zod';
import { crossCheck } from './cross-check.js';
import { splitHostPort } from './host-port.js';
import { normaliseSecurity, serverSecurity } from './normalise-security.js';
import { transportForUrl } from '../protocol/transport-for-url.js';
import {
  configSchema,
  DEFAULT_LISTEN,
  DEFAULT_MAX_BODY_BYTES,
  type GatewayConfig,
  type RawConfig,
  type RawServer,
  type ServerConfig,
} from './schema.js';

/** One problem in a config file, located precisely enough to jump to it in an editor. */
export interface ConfigProblem {
  file: string;
  line: number;
  column: number;
  /** Dotted path of the offending key, e.g. `mcpServers.files.mode`. */
  key: string;
  message: string;
}

export class ConfigError extends Error {
  constructor(readonly problems: ConfigProblem[]) {
    super(problems.map(formatProblem).join('\n'));
    this.name = 'ConfigError';
  }
}

export function formatProblem(p: ConfigProblem): string {
  const where = p.line > 0 ? `${p.file}:${p.line}:${p.column}` : p.file;
  return `${where}: ${p.key ? `${p.key}: ` : ''}${p.message}`;
}

/** Reads, validates and normalises a config file; throws ConfigError listing every problem found. */
export function loadConfig(file: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'file not found' : (err as Error).message;
    throw new ConfigError([{ file, line: 0, column: 0, key: '', message: reason }]);
  }
  return parseConfig(text, file, env);
}

export function parseConfig(text: string, file: string, env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: true, prettyErrors: false });
  const at = (offset: number | undefined) => {
    const pos = offset === undefined ? { line: 1, col: 1 } : lines.linePos(offset);
    return { line: pos.line, column: pos.col };
  };

  const syntax = [...doc.errors, ...doc.warnings.filter((w) => w.code === 'DUPLICATE_KEY')];
  if (syntax.length > 0) {
    throw new ConfigError(syntax.map((e) => ({ file, ...at(e.pos[0]), key: '', message: `YAML: ${e.message.split('\n')[0]}` })));
  }

  const problems: ConfigProblem[] = [];
  const locate = (keyPath: PropertyKey[], unknownKey?: string) => ({ file, ...at(offsetOf(doc, keyPath, unknownKey)) });
  const raw = expandEnv(doc.toJS(), [], env, (keyPath, message) =>
    problems.push({ ...locate(keyPath), key: keyPath.join('.'), message }),
  );

  // A value already reported (an unset variable) is not reported again by the schema.
  const reported = new Set(problems.map((p) => p.key));
  const parsed = configSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      if (issue.code === 'unrecognized_keys') {
        for (const key of issue.keys) {
          problems.push({ ...locate(issue.path, key), key: [...issue.path, key].join('.'), message: `unknown key; allowed: ${allowedKeys(issue.path)}` });
        }
      } else if (issue.code === 'invalid_key') {
        // A bad record key (a server name): point at the key itself, with the rule it broke.
        const key = String(issue.path[issue.path.length - 1]);
        problems.push({ ...locate(issue.path.slice(0, -1), key), key: issue.path.join('.'), message: `invalid name: ${issue.issues[0]?.message ?? issue.message}` });
      } else if (!reported.has(issue.path.join('.'))) {
        problems.push({ ...locate(issue.path), key: issue.path.join('.'), message: describeIssue(issue) });
      }
    }
  }
  // Cross-checks run even when the schema found problems, so one pass reports everything it can.
  let cross: ReturnType<typeof crossCheck> = [];
  try {
    cross = crossCheck((parsed.success ? parsed.data : raw ?? {}) as RawConfig);
  } catch {
    // The file is too malformed for cross-checks; the schema's problems say why.
  }
  for (const p of cross) {
    const key = [...p.path, ...(p.key ? [p.key] : [])].join('.');
    if (!reported.has(key)) problems.push({ ...locate(p.path, p.key), key, message: p.message });
  }
  if (problems.length > 0 || !parsed.success) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    throw new ConfigError(problems);
  }
  return normalise(parsed.data, file);
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
function unwrap(schema: unknown): SchemaLike | undefined {
  let s = schema as { def?: { innerType?: unknown; in?: unknown; type?: string; valueType?: unknown; shape?: Record<string, unknown> } } | undefined;
  for (let i = 0; i < 8 && s?.def; i++) {
    if (s.def.type === 'object') return { shape: s.def.shape };
    if (s.def.type === 'record') return { valueType: s.def.valueType };
    s = (s.def.innerType ?? s.def.in) as typeof s;
  }
  return undefined;
}

/** Finds where a key path sits in the YAML text: the key itself when `unknownKey` is given, else the value. */
function offsetOf(doc: Document, keyPath: PropertyKey[], unknownKey?: string): number | undefined {
  let node: unknown = doc.contents;
  let last: YamlNode | undefined = doc.contents ?? undefined;
  for (const key of keyPath) {
    if (!isMap(node)) break;
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === String(key));
    if (!pair) break;
    last = (pair.value as YamlNode | null) ?? (pair.key as YamlNode);
    node = pair.value;
  }
  if (unknownKey !== undefined && isMap(node)) {
    const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === unknownKey);
    if (pair && isScalar(pair.key)) return pair.key.range?.[0];
  }
  return last?.range?.[0];
}

/** Replaces `${VAR}` and `${VAR:-default}` in every string, so secrets can stay out of the file. */
function expandEnv(value: unknown, keyPath: PropertyKey[], env: NodeJS.ProcessEnv, problem: (p: PropertyKey[], m: string) => void): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g, (_m, name: string, fallback: string | undefined) => {
      const v = Object.hasOwn(env, name) ? env[name] : undefined;
      if (typeof v === 'string' && v !== '') return v;
      if (fallback !== undefined) return fallback;
      problem(keyPath, `environment variable ${name} is not set`);
      return '';
    });
  }
  if (Array.isArray(value)) return value.map((v, i) => expandEnv(v, [...keyPath, i], env, problem));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expandEnv(v, [...keyPath, k], env, problem)]));
  }
  return value;
}

function normalise(raw: RawConfig, file: string): GatewayConfig {
  const [host, port] = splitHostPort(raw.listen ?? DEFAULT_LISTEN);
  const baseDir = path.dirname(path.resolve(file));
  return {
    file,
    listen: { host, port },
    logLevel: raw.logLevel ?? 'info',
    separator: raw.namespace?.separator ?? '__',
    pageSize: raw.pageSize ?? 100,
    http: {
      maxBodyBytes: raw.http?.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      allowedHosts: raw.http?.allowedHosts ?? [],
      allowedOrigins: raw.http?.allowedOrigins ?? [],
      sessionIdleTimeoutMs: (raw.http?.sessionIdleTimeoutSeconds ?? 1800) * 1000,
      shutdownGraceMs: (raw.http?.shutdownGraceSeconds ?? 10) * 1000,
    },
    servers: Object.entries(raw.mcpServers)
      .filter(([, s]) => !s.disabled)
      .map(([name, s]) => normaliseServer(name, s, baseDir, raw.definitions)),
    dataDir: path.resolve(baseDir, raw.dataDir ?? '.sluice'),
    state: { url: raw.state?.url, keyPrefix: raw.state?.keyPrefix ?? 'sluice:' },
    metrics: {
      enabled: raw.metrics?.enabled ?? true,
      listen: raw.metrics?.listen === undefined ? undefined : (([h, p]) => ({ host: h, port: p }))(splitHostPort(raw.metrics.listen)),
      access: raw.metrics?.access ?? 'loopback',
    },
    security: normaliseSecurity(raw, baseDir),
  };
}

export { splitHostPort };

function normaliseServer(name: string, s: RawServer, baseDir: string, defaults: RawConfig['definitions']): ServerConfig {
  const definitions = { ...defaults, ...s.definitions };
  const common = {
    name,
    definitions: { new: definitions.new, changed: definitions.changed ?? 'quarantine', flagged: definitions.flagged ?? 'quarantine' },
    prefix: s.prefix ?? name,
    mode: s.mode ?? 'shared',
    maxSessions: s.maxSessions ?? 32,
    idleTimeoutMs: (s.idleTimeoutSeconds ?? 300) * 1000,
    // `timeout` (ms) is what several clients write; our own key is in seconds.
    requestTimeoutMs: s.requestTimeoutSeconds !== undefined ? s.requestTimeoutSeconds * 1000 : (s.timeout ?? 300_000),
    ...serverSecurity(s, baseDir),
  } as const;
  if (s.command !== undefined) {
    return {
      ...common,
      transport: 'stdio',
      command: s.command,
      args: s.args ?? [],
      env: s.env ?? {},
      // Relative paths in a config mean "relative to the config file", wherever sluice was started from.
      cwd: path.resolve(baseDir, s.cwd ?? '.'),
    };
  }
  const url = s.url as string;
  const transport = transportForUrl(url, s.type === 'stdio' ? undefined : s.type);
  const auth = s.auth?.clientCredentials ? { clientCredentials: s.auth.clientCredentials } : s.auth?.tokenExchange ? { tokenExchange: s.auth.tokenExchange } : undefined;
  return { ...common, transport, url, headers: s.headers ?? {}, ...(auth ? { auth } : {}) };
}
