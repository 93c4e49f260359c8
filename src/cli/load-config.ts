import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { ConfigError, loadConfig } from '../config/load.js';
import type { GatewayConfig } from '../config/schema.js';

/** The config used when none is named: ./sluice.yaml, else the embedded default shipped with sluice. */
export function defaultConfigPath(): string {
  if (existsSync('sluice.yaml')) return 'sluice.yaml';
  return fileURLToPath(new URL('../../sluice.yaml', import.meta.url));
}

/** Loads a config or exits 2 printing every problem with its file and line. */
export function loadOrExit(file: string = defaultConfigPath()): GatewayConfig {
  try {
    return loadConfig(file);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`${err.message}\n${err.problems.length} problem${err.problems.length === 1 ? '' : 's'} in ${file}\n`);
    process.exit(2);
  }
}
