import type { Stats } from 'node:fs';
import { lstat, readdir, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const INVISIBLE = /\p{Default_Ignorable_Code_Point}/gu;

/** As many symlinks as the Linux kernel follows for one path (MAXSYMLINKS); more is a loop or an attack. */
const MAX_SYMLINKS = 40;

/** realpath errors that mean "walk it by hand": a missing or dangling name, a file used as a folder, a loop. */
const WALK_ON = new Set(['ENOENT', 'ENOTDIR', 'ELOOP']);
const codeOf = (err: unknown) => (err as NodeJS.ErrnoException).code ?? '';

/**
 * The one true form of a path an agent passed, so rules see what the server will touch: percent-decoding
 * (repeated, so `%252e%252e` cannot sneak through a second decode on the server), `file://` URLs, Unicode
 * NFKC (full-width `．．／` is `../`), invisible characters removed, `..` resolved, and then resolved on disk
 * the way the file will really be opened (see `resolveOnDisk`). Relative paths resolve against `base` (the
 * server's working directory); without one they are refused, as they cannot be judged.
 */
export async function canonicalPath(raw: string, base: string | undefined): Promise<string> {
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
  if (!path.isAbsolute(p)) {
    if (!base) throw new Error(`relative path with no known base directory: ${raw}`);
    p = path.resolve(base, p);
  }
  return resolveOnDisk(path.resolve(p));
}

/**
 * Every symlink on the way resolved, whether its target exists or not. An existing path — the common case —
 * costs one realpath. Otherwise the path is walked by hand from its deepest existing ancestor: a name that is
 * not there exactly is looked for among the folder's entries under Unicode normalisation (and case, on a
 * case-insensitive folder), since servers and file systems such as macOS's open an NFC `caf\u00e9` as an
 * NFD `cafe\u0301` entry, and follow it if it is a link; and a symlink's own text is followed even when its
 * target does not exist yet, so a write "to a new file" cannot land wherever a dangling link points.
 */
async function resolveOnDisk(absolute: string): Promise<string> {
  try {
    return await realpath(absolute);
  } catch (err) {
    if (!WALK_ON.has(codeOf(err))) throw err;
  }
  const rest: string[] = [];
  let ancestor = absolute;
  let start: string | undefined;
  while (start === undefined) {
    const parent = path.dirname(ancestor);
    if (parent === ancestor) return absolute;
    rest.unshift(path.basename(ancestor));
    ancestor = parent;
    start = await realpath(ancestor).catch((err: unknown) => {
      if (WALK_ON.has(codeOf(err))) return undefined;
      throw err;
    });
  }
  return walk(start, rest);
}

/** Resolves `names` one by one below the real folder `start`, as the kernel would, plus equivalent names. */
async function walk(start: string, names: string[]): Promise<string> {
  const pending = [...names];
  let at = start;
  let links = 0;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '' || name === '.') continue;
    if (name === '..') {
      at = path.dirname(at);
      continue;
    }
    let entry = path.join(at, name);
    let stats = await lstatIfThere(entry);
    if (!stats) {
      const match = await equivalentEntry(at, name);
      if (match === undefined) {
        // Nothing by this name, so nothing below it exists: the rest are new names — unless a `..` (from a
        // link's text) climbs back out to names that do exist, which must be walked in turn.
        const tail = [name, ...pending];
        if (!tail.some((n) => n === '' || n === '.' || n === '..')) return path.join(at, ...tail);
        pending.splice(0, pending.length, ...path.normalize(tail.join(path.sep)).split(path.sep));
        continue;
      }
      entry = path.join(at, match);
      stats = await lstat(entry);
    }
    if (stats.isSymbolicLink()) {
      if (++links > MAX_SYMLINKS) throw new Error(`more than ${MAX_SYMLINKS} symbolic links on the way to ${entry} (a loop?)`);
      const target = await readlink(entry);
      if (path.isAbsolute(target)) at = path.parse(target).root;
      pending.unshift(...target.split(path.sep));
      continue;
    }
    at = entry;
  }
  return at;
}

async function lstatIfThere(p: string): Promise<Stats | undefined> {
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
async function equivalentEntry(dir: string, name: string): Promise<string | undefined> {
  let entries: string[];
  try {
    entries = await readdir(dir);
  } catch (err) {
    if (codeOf(err) === 'ENOENT' || codeOf(err) === 'ENOTDIR') return undefined;
    throw err;
  }
  const caseless = await isCaseInsensitive(dir, entries);
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
async function isCaseInsensitive(dir: string, entries: string[]): Promise<boolean> {
  const listed = new Set(entries);
  const probe = entries.find((e) => swapCase(e) !== e);
  if (probe === undefined) return false; // no name that case could change, so folding changes no match
  const swapped = swapCase(probe);
  if (listed.has(swapped)) return false; // both spellings are separate entries
  const [a, b] = await Promise.all([lstatIfThere(path.join(dir, probe)), lstatIfThere(path.join(dir, swapped))]);
  return a !== undefined && b !== undefined && a.ino === b.ino && a.dev === b.dev;
}

function swapCase(s: string): string {
  return [...s].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('');
}

/** A name with every non-ASCII character as a `\u{…}` escape, so look-alike spellings show their difference. */
function shown(name: string): string {
  return `"${[...name].map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join('')}"`;
}
