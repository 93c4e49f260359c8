import { describe, expect, it } from 'vitest';
import { bodyOf, GENESIS, hashRecord, verifyChain, type UnsealedRecord } from '../../src/audit/chain.js';
import type { AuditStore } from '../../src/audit/store.js';

const rec = (i: number, over: Partial<UnsealedRecord> = {}): UnsealedRecord => ({
  time: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
  kind: 'decision',
  agent: i % 2 ? 'alice' : 'bob',
  session: 's',
  transport: 'http',
  method: 'tools/call',
  target: `files__read_${i}`,
  outcome: i % 3 ? 'allow' : 'deny',
  ...over,
});

async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** The audit store port's contract: every implementation (memory, SQLite, and later Postgres) must pass it. */
export function auditStoreContract(name: string, make: () => Promise<AuditStore>): void {
  describe(`audit store contract: ${name}`, () => {
    it('seals records into one chain from the genesis, in order, whoever appends', async () => {
      const store = await make();
      const batches = await Promise.all([0, 1, 2].map((b) => store.append([rec(b * 2 + 1), rec(b * 2 + 2)])));
      const all = batches.flat().sort((a, b) => a.seq - b.seq);
      expect(all.map((r) => r.seq)).toEqual([1, 2, 3, 4, 5, 6]);
      expect(all[0].prevHash).toBe(GENESIS);
      for (let i = 1; i < all.length; i++) expect(all[i].prevHash).toBe(all[i - 1].hash);
      const { seq: _s, prevHash, hash, ...body } = all[2];
      expect(hash).toBe(hashRecord(prevHash, 3, bodyOf(body)));
      expect(await store.head()).toEqual({ seq: 6, hash: all[5].hash });
      expect(await verifyChain(store.iterate())).toMatchObject({ ok: true, checked: 6 });
      await store.close();
    });

    it('filters by agent, outcome, time and sequence, oldest or newest first, with a limit', async () => {
      const store = await make();
      await store.append(Array.from({ length: 12 }, (_, i) => rec(i + 1)));
      expect((await store.query({ agent: 'alice' })).every((r) => r.agent === 'alice')).toBe(true);
      expect((await store.query({ outcome: 'deny' })).map((r) => r.seq)).toEqual([3, 6, 9, 12]);
      expect((await store.query({ since: rec(10).time })).map((r) => r.seq)).toEqual([10, 11, 12]);
      expect((await store.query({ until: rec(2).time })).map((r) => r.seq)).toEqual([1, 2]);
      expect((await store.query({ afterSeq: 4, beforeSeq: 7 })).map((r) => r.seq)).toEqual([5, 6]);
      expect((await store.query({ newestFirst: true, limit: 2 })).map((r) => r.seq)).toEqual([12, 11]);
      expect((await store.query({ limit: 3 })).map((r) => r.seq)).toEqual([1, 2, 3]);
      await store.close();
    });

    it('matches targets with sluice globs: * and ? only, everything else literal, case kept', async () => {
      const store = await make();
      const targets = ['files__read_text_file', 'filesXXread', 'Files__read', 'file:///a[1].txt', 'file:///a1.txt', 'files__read', 'x%y', 'xzy'];
      await store.append(targets.map((target, i) => rec(i + 1, { target })));
      const find = async (glob: string) => (await store.query({ target: glob })).map((r) => r.target);
      expect(await find('files__read*')).toEqual(['files__read_text_file', 'files__read']);
      expect(await find('files__read')).toEqual(['files__read']);
      expect(await find('file:///a[1].txt')).toEqual(['file:///a[1].txt']); // not a character class
      expect(await find('file:///a?.txt')).toEqual(['file:///a1.txt']);
      expect(await find('x%y')).toEqual(['x%y']); // not a LIKE wildcard
      expect(await find('files_*')).toEqual(['files__read_text_file', 'files__read']); // _ is not a wildcard
      await store.close();
    });

    it('streams every record in order, past one page, with its columns checked against its body', async () => {
      const store = await make();
      for (let b = 0; b < 3; b++) await store.append(Array.from({ length: 1000 }, (_, i) => rec(b * 1000 + i + 1)));
      const rows = await collect(store.iterate());
      expect(rows).toHaveLength(3000);
      expect(rows.every((r, i) => r.seq === i + 1 && r.columnsMatch)).toBe(true);
      expect((await collect(store.iterate(2990))).map((r) => r.seq)).toEqual([2991, 2992, 2993, 2994, 2995, 2996, 2997, 2998, 2999, 3000]);
      await store.close();
    });

    it('keeps text no column can hold (NUL, lone surrogates) exactly in the body, with columns that still match it', async () => {
      const store = await make();
      const odd = ['x\ud800y', 'x\udc00y', 'tail\ud83d', '\ude00\ud83d', 'nul\0nul', 'x\uffffy', '\ud83d\ude00 paired'];
      // A field a record lacks (a hook, a bug) must not make the append throw: the log would stall on it.
      const missing = { ...rec(odd.length + 1), agent: undefined } as unknown as UnsealedRecord;
      const sealed = await store.append([...odd.map((s, i) => rec(i + 1, { agent: s, target: s })), missing]);
      const rows = await collect(store.iterate());
      expect(rows.map((r) => r.columnsMatch)).toEqual(rows.map(() => true));
      expect(await verifyChain(store.iterate())).toMatchObject({ ok: true, checked: odd.length + 1 });
      const back = await store.query({});
      expect(back.slice(0, odd.length).map((r) => [r.agent, r.target])).toEqual(odd.map((s) => [s, s]));
      expect(back.map((r) => r.hash)).toEqual(sealed.map((r) => r.hash));
      expect((await store.query({ agent: 'nul\0nul' })).map((r) => r.seq)).toEqual([5]);
      expect((await store.query({ target: 'nul*' })).map((r) => r.seq)).toEqual([5]);
      await store.close();
    });

    it('prunes up to a point and moves the anchor there; keeps signatures', async () => {
      const store = await make();
      const sealed = await store.append(Array.from({ length: 5 }, (_, i) => rec(i + 1)));
      expect(await store.anchor()).toEqual({ seq: 0, hash: GENESIS });
      expect(await store.prune(4)).toBe(3);
      expect(await store.anchor()).toEqual({ seq: 3, hash: sealed[2].hash });
      expect(await verifyChain(store.iterate(), await store.anchor())).toMatchObject({ ok: true, checked: 2 });
      const next = await store.append([rec(6)]);
      expect(next[0].seq).toBe(6);
      await store.addSignature({ seq: 6, hash: next[0].hash, signature: 'sig', time: 't' });
      expect(await store.signatures()).toEqual([{ seq: 6, hash: next[0].hash, signature: 'sig', time: 't' }]);
      await store.close();
    });
  });
}
