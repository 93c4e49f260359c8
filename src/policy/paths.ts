import picomatch from 'picomatch';
import type { RoleConfig } from '../config/schema.js';
import type { Params } from '../protocol/jsonrpc.js';
import { canonicalPath } from './canonical-path.js';
import { FsBudget } from './fs-budget.js';
import { findPathArgs, getAt, setAt } from './path-args.js';

export type PathCheck = { ok: true; arguments: Params; paths: string[] } | { ok: false; reason: string; rule?: string };

const compiled = new Map<string, (p: string) => boolean>();
function matcher(glob: string): (p: string) => boolean {
  let m = compiled.get(glob);
  if (!m) {
    const test = picomatch(glob, { dot: true });
    // `/dir/**` should cover `/dir` itself, as people mean it to.
    m = (p: string) => test(p) || test(`${p}/`);
    compiled.set(glob, m);
  }
  return m;
}

export function pathMatches(globs: readonly string[], p: string): string | undefined {
  return globs.find((g) => matcher(g)(p));
}

/**
 * Canonicalises every path argument and checks it against the role's path rules (deny wins; with an allow
 * list, a path must match one of it). The canonical paths replace the originals, so the server touches
 * exactly what was checked. Every path of the request shares one budget of file system calls.
 */
export async function checkPaths(args: Params, inputSchema: Params | undefined, selectors: string[] | undefined, role: RoleConfig, base: string | undefined, budget = new FsBudget()): Promise<PathCheck> {
  const where = findPathArgs(args, inputSchema, selectors);
  if (where.length === 0) return { ok: true, arguments: args, paths: [] };
  const hasRules = role.paths.allow.length > 0 || role.paths.deny.length > 0;
  let out = args;
  const paths: string[] = [];
  for (const at of where) {
    const raw = getAt(args, at) as string;
    let canonical: string;
    try {
      canonical = await canonicalPath(raw, base, budget);
    } catch (err) {
      if (!hasRules) continue;
      return { ok: false, reason: `path argument ${at.join('.')} cannot be checked: ${(err as Error).message}` };
    }
    const denied = pathMatches(role.paths.deny, canonical);
    if (denied) return { ok: false, reason: `path ${canonical} is denied`, rule: denied };
    if (role.paths.allow.length > 0 && !pathMatches(role.paths.allow, canonical)) {
      return { ok: false, reason: `path ${canonical} is outside the allowed paths`, rule: role.paths.allow.join(', ') };
    }
    paths.push(canonical);
    if (canonical !== raw) out = setAt(out, at, canonical);
  }
  return { ok: true, arguments: out, paths };
}
