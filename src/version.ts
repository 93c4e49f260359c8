import { readFileSync } from 'node:fs';

/** sluice's own version, read from package.json so it is never out of date. */
export const SLUICE_VERSION: string = (
  JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;
