import type { Dirent } from 'node:fs';
import { lstat, readdir, realpath } from 'node:fs/promises';
import path from 'node:path';
import picomatch from 'picomatch';
import type { FsBudget } from './fs-budget.js';
import { pathMatches } from './paths.js';

/**
 * What a folder holds that a deny rule covers. A deny rule on `sandbox/hr/private/**` guards those paths only
 * while they are there: moving, renaming, copying or deleting `sandbox/hr` takes them out of its reach, and a
 * listing or search of `sandbox` shows their names. So an operation on a folder must know whether denied paths
 * lie below it — from the rule's fixed prefix where it has one (`sandbox/hr/private`), from the disk where it
 * has not (`sandbox/**\/*.key`), in a walk bounded by the request's budget of file system calls.
 */

/** Denied entries one listing may have to hide; more is refused rather than walked. */
export const MAX_HIDDEN = 10_000;

const bases = new Map<string, string>();

/** The fixed folder a glob starts with (`/a/b` of `/a/b/**\/*.key`), '' when it starts with a wildcard. */
export function staticBase(glob: string): string {
  let base = bases.get(glob);
  if (base === undefined) {
    base = picomatch.scan(glob).base;
    base = path.isAbsolute(base) ? path.normalize(base).replace(/(.)\/$/, '$1') : '';
    bases.set(glob, base);
  }
  return base;
}

/** `p` is `dir` or lies below it. */
export function isWithin(p: string, dir: string): boolean {
  return p === dir || p.startsWith(dir.endsWith(path.sep) ? dir : dir + path.sep);
}

/** A folder a read names, with the denied entries below it that its result must not show. */
export interface Hidden {
  dir: string;
  entries: string[];
}

export type FolderCheck = { ok: true; hidden?: Hidden[] } | { ok: false; reason: string; rule: string };

/**
 * The deny rules on the folders a call names. A write to a folder that holds or could hold denied paths is
 * refused: moving, renaming, copying or deleting it would carry them out of the rule's reach. A read of one
 * goes ahead with the denied entries noted, to be taken out of its result — unless it has further arguments
 * (`searchArguments`, asked only then) that could make the result tell them by what it matched.
 */
export async function checkFolders(paths: readonly string[], operation: 'read' | 'write', deny: readonly string[], budget: FsBudget, searchArguments: () => string[]): Promise<FolderCheck> {
  if (operation === 'write') {
    for (const p of paths) {
      const rule = await writeReachesDenied(p, deny, budget);
      if (rule) return { ok: false, reason: `${p} is a folder that holds or could hold denied paths: a write to it (a move, rename, copy or delete) would carry them out of the rule's reach`, rule };
    }
    return { ok: true };
  }
  const hidden: Hidden[] = [];
  for (const p of paths) {
    const entries = await deniedEntries(p, deny, budget);
    if (entries.length > 0) hidden.push({ dir: p, entries });
  }
  if (hidden.length === 0) return { ok: true };
  const search = searchArguments();
  if (search.length > 0) {
    const reason = `a search or listing of ${hidden[0].dir} with further arguments (${search.join(', ')}) could reveal denied names by what it matches; it holds denied paths, so only a plain listing of it is allowed`;
    return { ok: false, reason, rule: deny.join(', ') };
  }
  return { ok: true, hidden };
}

/** The first deny rule whose fixed prefix lies strictly below `dir`: `dir` could hold what it denies, disk or not. */
export function ruleBelow(dir: string, deny: readonly string[]): string | undefined {
  return deny.find((g) => {
    const base = staticBase(g);
    return base !== '' && base !== dir && isWithin(base, dir);
  });
}

/** The rules that could match something at or below `dir`: their fixed prefix is above, at or below it, or they have none. */
function reaching(dir: string, deny: readonly string[]): string[] {
  return deny.filter((g) => {
    const base = staticBase(g);
    return base === '' || isWithin(dir, base) || isWithin(base, dir);
  });
}

/**
 * Whether a write to `dir` (a move, a rename, a copy, a delete) would carry denied paths with it: the rule that
 * says so, or undefined. A fixed prefix below `dir` decides at once; otherwise the folder's contents are
 * looked at, and the first denied entry found decides.
 */
export async function writeReachesDenied(dir: string, deny: readonly string[], budget: FsBudget): Promise<string | undefined> {
  const below = ruleBelow(dir, deny);
  if (below) return below;
  const rules = reaching(dir, deny);
  if (rules.length === 0) return undefined;
  const [first] = await deniedEntries(dir, rules, budget, 1);
  return first === undefined ? undefined : pathMatches(rules, first) ?? rules.join(', ');
}

/**
 * Every entry below the folder `dir` that a deny rule covers — and every link below it that leads to one, or to
 * a folder that holds one (following it would show what it holds). Empty when `dir` is not a folder. Walks only
 * where a rule could match, and does not follow links.
 */
export async function deniedEntries(dir: string, deny: readonly string[], budget: FsBudget, enough = MAX_HIDDEN + 1): Promise<string[]> {
  const rules = reaching(dir, deny);
  if (rules.length === 0 || !(await isFolder(dir, budget))) return [];
  const found: string[] = [];
  const pending = [dir];
  while (pending.length > 0 && found.length < enough) {
    const folder = pending.pop()!;
    for (const entry of await entriesOf(folder, budget)) {
      const full = path.join(folder, entry.name);
      if (pathMatches(rules, full) || (entry.isSymbolicLink() && (await linkLeadsToDenied(full, deny, budget)))) found.push(full);
      if (entry.isDirectory() && reaching(full, rules).length > 0) pending.push(full);
    }
  }
  if (found.length > MAX_HIDDEN) throw new Error(`${dir} holds more than ${MAX_HIDDEN} denied entries, too many to keep out of a listing; name a folder further down`);
  return found.slice(0, enough);
}

async function isFolder(p: string, budget: FsBudget): Promise<boolean> {
  budget.spend(`lstat ${p}`);
  try {
    return (await lstat(p)).isDirectory();
  } catch (err) {
    if (isMissing(err)) return false;
    throw err;
  }
}

async function entriesOf(folder: string, budget: FsBudget): Promise<Dirent[]> {
  budget.spend(`readdir ${folder}`);
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (err) {
    if (isMissing(err)) return []; // gone since it was listed
    throw err; // unreadable: the check cannot decide, so it says no
  }
}

async function linkLeadsToDenied(link: string, deny: readonly string[], budget: FsBudget): Promise<boolean> {
  budget.spend(`realpath ${link}`);
  let target: string;
  try {
    target = await realpath(link);
  } catch (err) {
    if (isMissing(err)) return false; // dangling: it leads nowhere yet, and a write through it is checked on its own
    throw err;
  }
  return pathMatches(deny, target) !== undefined || ruleBelow(target, deny) !== undefined;
}

function isMissing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP';
}
