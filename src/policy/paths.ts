import picomatch from 'picomatch';
import type { RoleConfig } from '../config/schema.js';
import type { Params } from '../protocol/jsonrpc.js';
import { canonicalPath, resolveOnDisk } from './canonical-path.js';
import { FsBudget } from './fs-budget.js';
import { findPathArgs, getAt, setAt, type ArgPath } from './path-args.js';
import { printable } from './printable.js';

/** A check's verdict; when it passes, the arguments with canonical paths, those paths, and where they sit. */
export type PathCheck = { ok: true; arguments: Params; paths: string[]; where: ArgPath[] } | { ok: false; reason: string; rule?: string };

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
  if (where.length === 0) return { ok: true, arguments: args, paths: [], where };
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
    const refused = judge(canonical, role);
    if (refused) return refused;
    paths.push(canonical);
    if (canonical !== raw) out = setAt(out, at, canonical);
  }
  return { ok: true, arguments: out, paths, where };
}

/** The role's verdict on one canonical path: deny wins; with an allow list, the path must match one of it. */
function judge(canonical: string, role: RoleConfig): Extract<PathCheck, { ok: false }> | undefined {
  const denied = pathMatches(role.paths.deny, canonical);
  if (denied) return { ok: false, reason: `path ${canonical} is denied`, rule: denied };
  if (role.paths.allow.length > 0 && !pathMatches(role.paths.allow, canonical)) {
    return { ok: false, reason: `path ${canonical} is outside the allowed paths`, rule: role.paths.allow.join(', ') };
  }
  return undefined;
}

const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu;

/**
 * The path rules on the file a `file:` resource URI names, taken as the kernel takes it (already decoded
 * once, not normalised: the upstream opens those bytes) and resolved on disk. Deny rules are also tried on
 * the name as a normalising reader would see it (NFKC, invisible characters removed), so a look-alike of a
 * denied name is refused too.
 */
export async function checkFilePath(filePath: string, role: RoleConfig, budget: FsBudget): Promise<PathCheck> {
  let canonical: string;
  try {
    canonical = await resolveOnDisk(filePath, budget);
  } catch (err) {
    return { ok: false, reason: `path ${printable(filePath)} cannot be checked: ${(err as Error).message}` };
  }
  const refused = judge(canonical, role);
  if (refused) return { ...refused, reason: printable(refused.reason, 4096) };
  const normalised = canonical.replace(IGNORABLE, '').normalize('NFKC');
  const denied = normalised !== canonical ? pathMatches(role.paths.deny, normalised) : undefined;
  if (denied) return { ok: false, reason: `path ${printable(canonical, 4096)} is denied: it reads as ${normalised} once normalised`, rule: denied };
  return { ok: true, arguments: {}, paths: [canonical], where: [] };
}
