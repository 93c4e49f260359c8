/**
 * What checking one path argument costs, in time and in file system calls: an existing file (one realpath), a
 * path 200 levels below an existing folder (a binary search for the deepest existing folder), and a path built
 * 30,000 levels deep to make the checker slow (refused before any call). Before the depth cap and the binary
 * search the last one cost seconds of CPU, with every other client waiting behind it.
 *
 *   npx tsc -p . && node --import tsx bench/path-check.ts
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { canonicalPath, FsBudget } from './sluice-internals.js';

export interface PathCheckFigure {
  case: string;
  calls: number;
  usPerCheck: number;
  fsCallsPerCheck: number;
}

export async function measurePathCheck(checks = 2000): Promise<PathCheckFigure[]> {
  const root = mkdtempSync(path.join(tmpdir(), 'sluice-bench-paths-'));
  mkdirSync(path.join(root, 'a', 'b'), { recursive: true });
  writeFileSync(path.join(root, 'a', 'b', 'file.txt'), 'x');
  const cases: [string, string][] = [
    ['existing file', path.join(root, 'a', 'b', 'file.txt')],
    ['200 levels, missing', path.join(root, 'a', 'b') + '/m'.repeat(200)],
    ['30,000 levels (refused)', root + '/x'.repeat(30_000)],
  ];
  const figures: PathCheckFigure[] = [];
  for (const [name, p] of cases) {
    const once = async (budget: FsBudget) => canonicalPath(p, undefined, budget).catch(() => undefined);
    for (let i = 0; i < Math.min(200, checks); i++) await once(new FsBudget()); // warm up
    let fsCalls = 0;
    const start = process.hrtime.bigint();
    for (let i = 0; i < checks; i++) {
      const budget = new FsBudget();
      await once(budget);
      fsCalls += budget.used;
    }
    const us = Number(process.hrtime.bigint() - start) / 1000;
    figures.push({ case: name, calls: checks, usPerCheck: us / checks, fsCallsPerCheck: fsCalls / checks });
  }
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measurePathCheck(Number(process.env.BENCH_CALLS ?? 2000));
  console.log('| path | checks | µs/check | fs calls/check |');
  console.log('| --- | ---: | ---: | ---: |');
  for (const f of figures) console.log(`| ${f.case} | ${f.calls} | ${f.usPerCheck.toFixed(1)} | ${f.fsCallsPerCheck.toFixed(1)} |`);
}
