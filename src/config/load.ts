import { readFileSync } from 'node:fs';
import path from 'node:path';
import { isMap, isScalar, LineCounter, parseDocument, type Document, type Node as YamlNode } from 'yaml';
import { checkConfig } from './check.js';
import { expandEnv } from './expand-env.js';
import { splitHostPort } from './host-port.js';
import { gatewayConfig, type ConfigInput, type GatewayConfig } from './schema.js';

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
  // A value already reported (an unset variable) is not reported again by the checks.
  const checked = checkConfig(raw, new Set(problems.map((p) => p.key)));
  if (!checked.ok) problems.push(...checked.problems.map((p) => ({ ...locate(p.path, p.atKey), key: p.key, message: p.message })));
  if (problems.length > 0 || !checked.ok) {
    problems.sort((a, b) => a.line - b.line || a.column - b.column);
    throw new ConfigError(problems);
  }
  return gatewayConfig(checked.config, path.dirname(path.resolve(file)), file);
}

/**
 * A config built in code, in the file's shape (`{ mcpServers: { files: { command, args } }, roles: … }`):
 * checked like a file, with every default filled in. Relative paths in it are relative to `baseDir` (default:
 * the working directory). Throws ConfigError listing every problem by its key.
 */
export function buildConfig(input: ConfigInput, options: { baseDir?: string } = {}): GatewayConfig {
  const checked = checkConfig(input);
  if (!checked.ok) throw new ConfigError(checked.problems.map((p) => ({ file: 'config', line: 0, column: 0, key: p.key, message: p.message })));
  return gatewayConfig(checked.config, path.resolve(options.baseDir ?? '.'));
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

export { splitHostPort };
