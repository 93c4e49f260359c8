import { readFile } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';

/** The console's files live in src/console (plain HTML, CSS and JS: no build step), next to src and dist alike. */
const DIR = fileURLToPath(new URL('../../src/console/', import.meta.url));

/** Libraries the console uses, served from their npm packages (no copies in the repository). */
const VENDOR = new Map([
  ['uplot.js', fileURLToPath(new URL('../../node_modules/uplot/dist/uPlot.iife.min.js', import.meta.url))],
  ['uplot.css', fileURLToPath(new URL('../../node_modules/uplot/dist/uPlot.min.css', import.meta.url))],
]);

const TYPES: Record<string, string> = { html: 'text/html; charset=utf-8', js: 'text/javascript; charset=utf-8', css: 'text/css; charset=utf-8', svg: 'image/svg+xml' };

/**
 * Serves /console and its assets. Names are matched against a strict pattern (no slashes, no dots but the
 * extension's), so a request can never climb out of the folder. The page holds no data: everything it shows
 * comes from the admin API, behind the operator token.
 */
export async function serveConsole(path: string, res: ServerResponse): Promise<void> {
  const name = path === '/console' || path === '/console/' ? 'index.html' : path.slice('/console/'.length);
  const m = /^([a-z0-9-]+)\.(html|js|css|svg)$/.exec(name);
  const body = m ? await readFile(VENDOR.get(name) ?? DIR + name).catch(() => undefined) : undefined;
  if (!m || !body) {
    res.writeHead(404, { 'content-type': 'text/plain' });
    return void res.end('not found');
  }
  res.writeHead(200, {
    'content-type': TYPES[m[2]],
    'content-length': body.length,
    'cache-control': 'no-cache',
    // The console runs only its own scripts and talks only to this gateway.
    'content-security-policy': "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
  });
  res.end(body);
}
