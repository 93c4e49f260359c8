import { mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { canonicalPath } from '../../src/policy/canonical-path.js';
import { FsBudget } from '../../src/policy/fs-budget.js';

/**
 * Canonicalising a path costs file system calls, and a path is the attacker's to choose: a 30,000-level path
 * that does not exist once cost seconds of CPU (every ancestor realpath'd in turn, each as long as the path) and
 * slowed every other client. Depth is capped, the missing tail is found in a logarithmic number of calls, and
 * every request has a budget of calls it cannot exceed. Counted in calls, not timed: the assertions hold on any
 * machine.
 */
let root: string;
beforeAll(() => {
  root = mkdtempSync(path.join(tmpdir(), 'sluice-depth-'));
  mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  symlinkSync('self', path.join(root, 'self')); // a link to itself: a loop
});

describe('deep paths', () => {
  it('refuses a 30,000-level path without a single file system call', async () => {
    const budget = new FsBudget();
    const deep = root + '/x'.repeat(30_000);
    await expect(canonicalPath(deep, undefined, budget)).rejects.toThrow(/levels deep; sluice checks paths up to 256 levels/);
    expect(budget.used).toBe(0);
  });

  it('refuses a path longer than PATH_MAX, however few its levels', async () => {
    const budget = new FsBudget();
    await expect(canonicalPath(`${root}/${'n'.repeat(5000)}`, undefined, budget)).rejects.toThrow(/longer than 4096 bytes/);
    expect(budget.used).toBe(0);
  });

  it('resolves a 200-level missing path in a handful of calls, not one per level', async () => {
    const budget = new FsBudget();
    const tail = '/m'.repeat(200);
    await expect(canonicalPath(`${root}/a/b${tail}`, undefined, budget)).resolves.toBe(`${root}/a/b${tail}`);
    // One realpath of the whole path, a binary search for the deepest existing folder (~log2 of the depth),
    // then the first missing name looked up (lstat, and a folder scan for an equivalent spelling).
    expect(budget.used).toBeGreaterThan(0);
    expect(budget.used).toBeLessThanOrEqual(16);
  });

  it('refuses once the request has spent its budget of calls, saying so', async () => {
    const budget = new FsBudget(2);
    await expect(canonicalPath(`${root}/a/b/missing/deeper`, undefined, budget)).rejects.toThrow(/more than 2 file system calls/);
  });

  it('shares one budget across every path of a request', async () => {
    const budget = new FsBudget(5);
    await canonicalPath(`${root}/a/b`, undefined, budget); // exists: one realpath
    await canonicalPath(`${root}/a`, undefined, budget);
    expect(budget.used).toBe(2);
  });

  it('still refuses a symlink loop', async () => {
    await expect(canonicalPath(`${root}/self/x`, undefined, new FsBudget())).rejects.toThrow(/symbolic links/);
  });
});
