import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: the bench runs gateways and peers from here whatever the caller's cwd. */
export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** server-everything's stdio entry point: the one upstream every path in the bench talks to. */
export const EVERYTHING = path.join(ROOT, 'node_modules/@modelcontextprotocol/server-everything/dist/index.js');

/** A locally installed peer's executable (node_modules/.bin), never a global one. */
export function bin(name: string): string {
  return path.join(ROOT, 'node_modules/.bin', name);
}

/** The built CLI, what `npm start` runs: every sluice the bench starts is this (`npm run bench` builds it first). */
export const CLI = path.join(ROOT, 'dist/cli/main.js');
