import { realpath } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const INVISIBLE = /[\u00AD\u200B-\u200F\u202A-\u202E\u2060-\u2064\uFEFF]/g;

/**
 * The one true form of a path an agent passed, so rules see what the server will touch: percent-decoding
 * (repeated, so `%252e%252e` cannot sneak through a second decode on the server), `file://` URLs, Unicode
 * NFKC (full-width `．．／` is `../`), invisible characters removed, `..` resolved, and symlinks resolved —
 * for a path that does not exist yet, its nearest existing ancestor. Relative paths resolve against `base`
 * (the server's working directory); without one they are refused, as they cannot be judged.
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
  return resolveSymlinks(path.resolve(p));
}

async function resolveSymlinks(absolute: string): Promise<string> {
  const missing: string[] = [];
  let current = absolute;
  for (;;) {
    try {
      const real = await realpath(current);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTDIR') throw err;
      const parent = path.dirname(current);
      if (parent === current) return absolute;
      missing.push(path.basename(current));
      current = parent;
    }
  }
}
