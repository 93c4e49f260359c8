import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalPath } from '../../src/policy/canonical-path.js';

// Issue 22: invisible characters were a hand-made list; now every Default_Ignorable_Code_Point goes, as in the filters.
describe('path canonicalisation and characters that render as nothing', () => {
  it('removes each kind from a path before the rules see it', async () => {
    const dir = realpathSync(mkdtempSync(path.join(tmpdir(), 'sluice-invisible-path-')));
    writeFileSync(path.join(dir, 'secret.txt'), 'x');
    for (const inv of ['\u200B', '\u3164', '\u115F', '\uFE0F', '\u{E0001}', '\u180B', '\u2061', '\u034F']) {
      expect(await canonicalPath(path.join(dir, `sec${inv}ret.txt`), undefined), JSON.stringify(inv)).toBe(path.join(dir, 'secret.txt'));
    }
  });
});
