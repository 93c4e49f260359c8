import type { Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FsBudget } from './fs-budget.js';

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** As many symlinks as the Linux kernel follows for one path (MAXSYMLINKS); more is a loop or an attack. */
const MAX_SYMLINKS = 40;

/**
 * The deepest path checked. Real trees stay far below it; a path built thousands of levels deep is an attack on
 * the checker's time, refused before any file system call.
 */
export const MAX_DEPTH = 256;

/** PATH_MAX on Linux: no system call opens a longer path, so a longer one is refused rather than resolved. */
export const MAX_BYTES = 4096;

/** What a raw argument may weigh before decoding (percent-encoding may triple it, twice over). */
const MAX_RAW_CHARS = 16 * MAX_BYTES;

/** realpath errors that mean "walk it by hand": a missing or dangling name, a file used as a folder, a loop. */
const WALK_ON = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);
const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/**
 * The one true form of a path an agent passed, so rules see what the server will touch: percent-decoding
 * (repeated, so `%252e%252e` cannot sneak through a second decode on the server), `file://` URLs, Unicode
 * NFKC (full-width `．．／` is `../`), invisible characters removed, `..` resolved, and then resolved on disk
 * the way the file will really be opened (see `resolveOnDisk`). Relative paths resolve against `base` (the
 * server's working directory); without one they are refused, as they cannot be judged. The file system calls
 * it makes are counted against `budget`, which the request's other paths share.
 */
export async function canonicalPath(raw: string, base: string | undefined, budget = new FsBudget()): Promise<string> {
  if (raw.length > MAX_RAW_CHARS) throw new Error(`path argument is ${raw.length} characters long; no path is longer than ${MAX_BYTES} bytes`);
  let p = raw;
  for (let i = 0; i < 5 && /%[0-9A-Fa-f]{2}/.test(p); i++) {
    try {
      p = decodeURIComponent(p);
    } catch {
      throw new Error(`malformed percent-encoding in path: ${raw}`);
    }
  }
  p = p.normalize('NFKC').replace(INVISIBLE, '');
  if (p.includes('\0')) throw new Error('path contains a NUL byte');
  if (/^file:/i.test(p)) p = fileURLToPath(p);
  // Before resolving: resolving a path built thousands of levels deep is itself the slow part.
  assertSize(p);
  if (!path.isAbsolute(p)) {
    if (!base) throw new Error(`relative path with no known base directory: ${raw}`);
    p = path.resolve(base, p);
  }
  return resolveOnDisk(path.resolve(p), budget);
}

/**
 * Every symlink on the way resolved, whether its target exists or not, for an absolute path taken as the
 * kernel takes it (no decoding, no normalising). An existing path — the common case — costs one realpath.
 * Otherwise the deepest existing folder is found by halving (a missing folder has no existing descendants, so
 * existence along the path is a prefix: log2 of the depth calls, not one per level) and the rest is walked by
 * hand from there: a name that is not there exactly is looked for among the folder's entries under Unicode
 * normalisation (and case, on a case-insensitive folder), since servers and file systems such as macOS's open
 * an NFC `caf\u00e9` as an NFD `cafe\u0301` entry, and followed if it is a link; and a symlink's own text is
 * followed even when its target does not exist yet, so a write "to a new file" cannot land wherever a dangling
 * link points.
 */
export async function resolveOnDisk(absolute: string, budget: FsBudget): Promise<string> {
  assertSize(absolute);
  const whole = await realpathIfThere(absolute, budget);
  if (whole !== undefined) return whole;
  const names = absolute.split(path.sep).filter((n) => n !== '');
  const prefix = (n: number) => path.sep + names.slice(0, n).join(path.sep);
  let found = 0; // the root always exists
  let start = path.parse(absolute).root;
  let missing = names.length;
  while (missing - found > 1) {
    const mid = (found + missing) >>> 1;
    const real = await realpathIfThere(prefix(mid), budget);
    if (real === undefined) missing = mid;
    else [found, start] = [mid, real];
  }
  const resolved = await walk(start, names.slice(found), budget);
  assertSize(resolved); // links on the way may have made it longer
  return resolved;
}

/** Refuses a path too deep or too long to be checked (or opened), counting cheaply: no split, no resolve. */
function assertSize(p: string): void {
  let depth = 0;
  for (let i = p.indexOf(path.sep); i !== -1; i = p.indexOf(path.sep, i + 1)) depth++;
  if (depth > MAX_DEPTH) throw new Error(`path is ${depth} levels deep; sluice checks paths up to ${MAX_DEPTH} levels`);
  const bytes = Buffer.byteLength(p);
  if (bytes > MAX_BYTES) throw new Error(`path is ${bytes} bytes, longer than ${MAX_BYTES} bytes (PATH_MAX): no system call opens it`);
}

async function realpathIfThere(p: string, budget: FsBudget): Promise<string | undefined> {
  budget.spend(`realpath ${p}`);
  try {
    return await realpath(p);
  } catch (err) {
    if (WALK_ON.has(codeOf(err))) return undefined;
    throw err;
  }
}

const isDots = (n: string) => n === '' || n === '.' || n === '..';

/**
 * Resolves `names` one by one below the real folder `start`, as the kernel would, plus equivalent names. The
 * names wait on a stack, next one last, so taking one and pushing a link's text are O(1) whatever the depth.
 */
async function walk(start: string, names: string[], budget: FsBudget): Promise<string> {
  const pending = [...names].reverse();
  let at = start;
  let links = 0;
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      at = path.dirname(at);
      continue;
    }
    let entry = path.join(at, name);
    let stats = await lstatIfThere(entry, budget);
    if (!stats) {
      const match = await equivalentEntry(at, name, budget);
      if (match === undefined) {
        // Nothing by this name, so nothing below it exists: the rest are new names — unless a `..` (from a
        // link's text) climbs back out to names that do exist, which must be walked in turn.
        const tail = [name, ...pending.reverse()];
        if (!tail.some(isDots)) return path.join(at, tail.join(path.sep));
        pending.length = 0;
        for (const n of path.normalize(tail.join(path.sep)).split(path.sep).reverse()) pending.push(n);
        continue;
      }
      entry = path.join(at, match);
      budget.spend(`lstat ${entry}`);
      stats = await lstat(entry);
    }
    if (stats.isSymbolicLink()) {
      if (++links > MAX_SYMLINKS) throw new Error(`more than ${MAX_SYMLINKS} symbolic links on the way to ${entry} (a loop?)`);
      budget.spend(`readlink ${entry}`);
      const target = await readlink(entry);
      if (path.isAbsolute(target)) at = path.parse(target).root;
      pending.push(...target.split(path.sep).reverse());
      continue;
    }
    at = entry;
  }
  return at;
}

async function lstatIfThere(p: string, budget: FsBudget): Promise<Stats | undefined> {
  budget.spend(`lstat ${p}`);
  try {
    return await lstat(p);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR') return undefined;
    throw err;
  }
}

/**
 * The one entry of `dir` that `name` (not there by its exact bytes) would be opened as: equal under NFC, NFD,
 * NFKC or NFKD of both sides — NFKC equality covers all four — and under case folding when the folder is
 * case-insensitive. Undefined when there is none; two or more is refused, as which one opens is anyone's guess.
 */
async function equivalentEntry(dir: string, name: string, budget: FsBudget): Promise<string | undefined> {
  let entries: string[];
  budget.spend(`readdir ${dir}`);
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR') return undefined;
    throw err;
  }
  const caseless = await isCaseInsensitive(dir, entries, budget);
  const key = nameKey(name, caseless);
  const matches = entries.filter((e) => nameKey(e, caseless) === key);
  if (matches.length > 1) {
    const how = caseless ? 'Unicode normalisation or case' : 'Unicode normalisation';
    throw new Error(`ambiguous path component ${shown(name)} in ${dir}: it matches ${matches.length} entries that differ only in ${how} (${matches.map(shown).join(', ')})`);
  }
  return matches[0];
}

function nameKey(name: string, caseless: boolean): string {
  // Upper then lower folds `ß` and `SS` together, as case-insensitive file systems do.
  return caseless ? name.normalize('NFKD').toUpperCase().toLowerCase().normalize('NFKC') : name.normalize('NFKC');
}

/**
 * Whether `dir` ignores case, asked of the folder itself (one volume may hold both kinds, and Linux can fold
 * case per folder): does a case-swapped spelling of an entry open that same entry?
 */
async function isCaseInsensitive(dir: string, entries: string[], budget: FsBudget): Promise<boolean> {
  const listed = new Set(entries);
  const probe = entries.find((e) => swapCase(e) !== e);
  if (probe === undefined) return false; // no name that case could change, so folding changes no match
  const swapped = swapCase(probe);
  if (listed.has(swapped)) return false; // both spellings are separate entries
  const [a, b] = await Promise.all([lstatIfThere(path.join(dir, probe), budget), lstatIfThere(path.join(dir, swapped), budget)]);
  return a !== undefined && b !== undefined && a.ino === b.ino && a.dev === b.dev;
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** A name with every non-ASCII character as a `\u{…}` escape, so look-alike spellings show their difference. */
function shown(name: string): string {
  return `"${[...name].map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('')}"`;
}
