import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/servers.js';

interface Import {
  file: string;
  target: string;
  from: string;
  to: string;
}

/** Every relative import in src/ or bench/ (type-only ones too), as [from folder, to folder] and file to file. */
function imports(dir: 'src' | 'bench' = 'src'): Import[] {
  const root = path.join(ROOT, dir);
  const out: Import[] = [];
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.ts')) continue;
    const file = path.join(entry.parentPath, entry.name);
    const from = path.relative(root, entry.parentPath).split(path.sep)[0] || '.';
    for (const m of readFileSync(file, 'utf8').matchAll(/from '(\.[^']+)'/g)) {
      const target = path.relative(root, path.resolve(entry.parentPath, m[1])).split(path.sep)[0];
      const targetFile = path.relative(ROOT, path.resolve(entry.parentPath, m[1]).replace(/\.js$/, '.ts'));
      out.push({ file: path.relative(ROOT, file), target: targetFile, from, to: target.endsWith('.js') ? '.' : target });
    }
  }
  return out;
}

/** The import cycles between files: each as the files around it. */
function cycles(all: Import[]): string[] {
  const graph = new Map<string, Set<string>>();
  for (const i of all) (graph.get(i.file) ?? graph.set(i.file, new Set()).get(i.file)!).add(i.target);
  const found: string[] = [];
  // Depth-first search with colours: a grey node met again closes a cycle.
  const colour = new Map<string, 'grey' | 'black'>();
  const visit = (node: string, trail: string[]) => {
    colour.set(node, 'grey');
    for (const next of graph.get(node) ?? []) {
      if (colour.get(next) === 'grey') found.push([...trail.slice(trail.indexOf(next)), next].join(' → '));
      else if (!colour.has(next)) visit(next, [...trail, next]);
    }
    colour.set(node, 'black');
  };
  for (const node of graph.keys()) if (!colour.has(node)) visit(node, [node]);
  return found;
}

describe('architecture', () => {
  it('keeps transports away from upstream connections: every call goes through the dispatcher', () => {
    const all = imports();
    expect(all.filter((i) => i.from === 'transports' && i.to === 'gateway').length).toBeGreaterThan(3);
    const bad = all.filter((i) => i.from === 'transports' && i.to === 'upstream');
    expect(bad).toEqual([]);
  });

  it('points dependencies down the flow (cli → transports → gateway → policy/upstream → protocol), never back up', () => {
    const rank: Record<string, number> = { cli: 6, transports: 5, telemetry: 5, gateway: 4, policy: 3, audit: 3, approvals: 3, upstream: 3, identity: 2, definitions: 2, state: 1, urls: 1, ifc: 1, filters: 1, config: 1, protocol: 0, '.': 0 };
    const bad = imports().filter((i) => rank[i.from] !== undefined && rank[i.to] !== undefined && rank[i.to] > rank[i.from]);
    expect(bad).toEqual([]);
  });

  it('keeps the agent on MCP client pieces only: it must work against any server, not only sluice', () => {
    const bad = imports().filter((i) => i.from === 'agent' && ['gateway', 'upstream', 'transports', 'policy', 'audit', 'approvals', 'console'].includes(i.to));
    expect(imports().some((i) => i.from === 'agent')).toBe(true);
    expect(bad).toEqual([]);
  });

  it('has no import cycles, between files or between folders (the gateway ↔ input-required and policy ↔ audit ones stay gone)', () => {
    const all = imports();
    expect(cycles(all)).toEqual([]);
    const folders = new Set(all.filter((i) => i.from !== i.to && i.from !== '.' && i.to !== '.').map((i) => `${i.from}>${i.to}`));
    const twoWay = [...folders].filter((f) => folders.has(f.split('>').reverse().join('>')));
    expect(twoWay).toEqual([]);
  });

  it('keeps the policy off the audit log: decisions reach it through the Recorder port only', () => {
    expect(imports().filter((i) => i.from === 'policy' && i.to === 'audit')).toEqual([]);
  });

  it('has no import cycles in bench/ either (the catalog generator ↔ SearchDoc and targets ↔ shared-targets ones stay gone)', () => {
    const all = imports('bench');
    expect(all.length).toBeGreaterThan(50);
    expect(cycles(all)).toEqual([]);
  });

  it('lets bench/ reach inside sluice through bench/sluice-internals.ts only, never by a path into src/ or dist/', () => {
    const intoSluice = imports('bench').filter((i) => /^(src|dist)\//.test(i.target)).map((i) => `${i.file} → ${i.target}`);
    expect(intoSluice).toEqual([]);
    const bench = path.join(ROOT, 'bench');
    const mapped = readdirSync(bench, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.ts') && readFileSync(path.join(e.parentPath, e.name), 'utf8').includes("from '#sluice/"))
      .map((e) => path.relative(ROOT, path.join(e.parentPath, e.name)));
    expect(mapped).toEqual(['bench/sluice-internals.ts']);
  });
});
