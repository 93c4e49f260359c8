import { linkSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomHex } from './random.js';

/**
 * Creates `file` with `content` unless it exists, atomically: the content is written to a temporary file
 * beside it and hard-linked into place, so a process that finds the file never reads it half written (two
 * replicas starting at once on one data dir). Returns false when another process made it first.
 */
export function writeOnce(file: string, content: string, mode: number): boolean {
  const temporary = `${file}.${process.pid}.${randomHex(4)}.tmp`;
  writeFileSync(temporary, content, { mode, flag: 'wx' });
  try {
    linkSync(temporary, file);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(temporary);
  }
}
