import { describe, expect, it, vi } from 'vitest';

/**
 * Case-insensitive folders cannot be made on the test machines (ext4, no casefold), so this file runs the
 * canonicaliser over an in-memory file system instead: `/vol` ignores case but not Unicode normalisation, the
 * way FAT and exFAT do; `/cs` is an ordinary case-sensitive folder. Whether a folder ignores case must be
 * found out from the folder itself, and a name must then be matched under case folding too.
 */
const fake = vi.hoisted(() => {
  type Node = { ino: number } & ({ kind: 'dir'; caseless: boolean; children: Map<string, Node> } | { kind: 'file' } | { kind: 'link'; target: string });
  let ino = 1;
  const dir = (caseless: boolean, children: Record<string, Node> = {}): Node => ({ ino: ino++, kind: 'dir', caseless, children: new Map(Object.entries(children)) });
  const file = (): Node => ({ ino: ino++, kind: 'file' });
  const link = (target: string): Node => ({ ino: ino++, kind: 'link', target });
  const fail = (code: string, p: string) => Object.assign(new Error(`${code}: ${p}`), { code });

  const root = dir(false, {
    secret: dir(false, { 'key.txt': file() }),
    vol: dir(true, {
      'Cafe\u0301': link('/secret'), // NFD, capital C
      'Notes.txt': file(),
    }),
    twice: dir(true, {
      'Cafe\u0301': link('/secret'),
      '\uff43afe\u0301': dir(true), // full-width ｃ: equal to `café` under NFKC alone
    }),
    cs: dir(false, { 'Cafe\u0301': link('/secret') }),
  });

  /** The kernel's lookup: exact bytes, or on a caseless folder the same letters in any case (no normalising). */
  function find(d: Node & { kind: 'dir' }, name: string): [string, Node] | undefined {
    const exact = d.children.get(name);
    if (exact) return [name, exact];
    if (!d.caseless) return undefined;
    return [...d.children].find(([k]) => k.toLowerCase() === name.toLowerCase());
  }

  function walk(p: string, followLast: boolean): { node: Node; real: string } {
    const parts = p.split('/').filter((s) => s && s !== '.');
    const stack: { name: string; node: Node }[] = [];
    let links = 0;
    while (parts.length > 0) {
      const name = parts.shift()!;
      if (name === '..') {
        stack.pop();
        continue;
      }
      const cur = stack.at(-1)?.node ?? root;
      if (cur.kind !== 'dir') throw fail('ENOTDIR', p);
      const found = find(cur, name);
      if (!found) throw fail('ENOENT', p);
      const [realName, child] = found;
      if (child.kind === 'link' && (parts.length > 0 || followLast)) {
        if (++links > 40) throw fail('ELOOP', p);
        if (child.target.startsWith('/')) stack.length = 0;
        parts.unshift(...child.target.split('/').filter((s) => s && s !== '.'));
        continue;
      }
      stack.push({ name: realName, node: child });
    }
    return { node: stack.at(-1)?.node ?? root, real: `/${stack.map((s) => s.name).join('/')}` };
  }

  const calls = { realpath: 0, lstat: 0, readdir: 0, readlink: 0 };
  const api = {
    realpath: async (p: string) => {
      calls.realpath++;
      return walk(p, true).real;
    },
    lstat: async (p: string) => {
      calls.lstat++;
      const { node } = walk(p, false);
      return { ino: node.ino, dev: 1, isSymbolicLink: () => node.kind === 'link' };
    },
    readdir: async (p: string) => {
      calls.readdir++;
      const { node } = walk(p, true);
      if (node.kind !== 'dir') throw fail('ENOTDIR', p);
      return [...node.children.keys()];
    },
    readlink: async (p: string) => {
      calls.readlink++;
      const { node } = walk(p, false);
      if (node.kind !== 'link') throw fail('EINVAL', p);
      return node.target;
    },
  };
  return { api, calls };
});
vi.mock('node:fs/promises', () => ({ ...fake.api, default: fake.api }));

const { canonicalPath } = await import('../../src/policy/canonical-path.js');

describe('names on a case-insensitive folder', () => {
  it('resolves a name that differs in case and normalisation through the symlink it opens', async () => {
    // `CAFÉ` (NFC) is not `Cafe\u0301` byte for byte, nor case-insensitively — only both together.
    await expect(canonicalPath('/vol/CAF\u00c9/key.txt', undefined)).resolves.toBe('/secret/key.txt');
  });

  it('refuses a name that matches two entries once case is folded, naming the ambiguity', async () => {
    await expect(canonicalPath('/twice/CAF\u00c9/key.txt', undefined)).rejects.toThrow(/ambiguous path component "CAF\\u\{c9\}".*normalisation or case/);
  });

  it('does not fold case on a case-sensitive folder', async () => {
    await expect(canonicalPath('/cs/CAF\u00c9/key.txt', undefined)).resolves.toBe('/cs/CAF\u00c9/key.txt');
    await expect(canonicalPath('/cs/Caf\u00e9/key.txt', undefined)).resolves.toBe('/secret/key.txt');
  });

  it('costs one realpath for an existing path, and scans a folder only for a name missing from it', async () => {
    const reset = () => Object.assign(fake.calls, { realpath: 0, lstat: 0, readdir: 0, readlink: 0 });
    reset();
    await expect(canonicalPath('/vol/Notes.txt', undefined)).resolves.toBe('/vol/Notes.txt');
    expect(fake.calls).toEqual({ realpath: 1, lstat: 0, readdir: 0, readlink: 0 });
    reset();
    await expect(canonicalPath('/vol/brand-new.txt', undefined)).resolves.toBe('/vol/brand-new.txt');
    expect(fake.calls.readdir).toBe(1);
  });
});
