import { describe, expect, it } from 'vitest';
import type { AuditRecord, UnsealedRecord } from '../../src/audit/chain.js';
import { verifyChain } from '../../src/audit/chain.js';
import { bodyOf } from '../../src/audit/chain.js';
import { canonicalJson } from '../../src/canonical-json.js';
import { recordOf } from '../../src/audit/from-decision.js';
import { AuditLog } from '../../src/audit/log.js';
import { MemoryAuditStore } from '../../src/audit/memory-store.js';

const record = (i: number): UnsealedRecord => ({
  time: new Date(1_700_000_000_000 + i).toISOString(),
  kind: 'decision',
  agent: 'a',
  session: 's',
  transport: 'http',
  method: 'tools/call',
  target: `t${i}`,
  outcome: 'allow',
});

/**
 * A store whose appends are answered late and out of order (as a networked one may be) and whose chosen
 * appends fail: the log above must still land every record once, in the order it was written.
 */
class SlowStore extends MemoryAuditStore {
  calls = 0;
  inFlight = 0;
  mostInFlight = 0;
  constructor(private readonly failCall: (n: number) => boolean) {
    super();
  }
  override async append(records: UnsealedRecord[]): Promise<AuditRecord[]> {
    const n = ++this.calls;
    this.inFlight++;
    this.mostInFlight = Math.max(this.mostInFlight, this.inFlight);
    try {
      // The first batch is answered after the second: its records must still come first in the chain.
      await new Promise((r) => setTimeout(r, n === 1 ? 30 : 5));
      if (this.failCall(n)) throw new Error(`store refused batch ${n}`);
      return await super.append(records);
    } finally {
      this.inFlight--;
    }
  }
}

describe('the audit log hands batches to the store while others commit', () => {
  it('keeps two batches in flight; every record lands once, and one written after another landed comes after it', async () => {
    const store = new SlowStore(() => false);
    const log = new AuditLog(store);
    const writes: Promise<AuditRecord | undefined>[] = [];
    // Full batches go at once, two at a time; the rest wait for room.
    for (let i = 0; i < 300; i++) writes.push(log.write(record(i)));
    const sealed = await Promise.all(writes);
    expect(store.mostInFlight).toBe(2);
    // Concurrent writes may land in either order (the first batch was answered last) — but each exactly once.
    expect(sealed.map((r) => r!.target).sort()).toEqual(Array.from({ length: 300 }, (_, i) => `t${i}`).sort());
    expect(sealed.map((r) => r!.seq).sort((a, b) => a - b)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
    const stored = await store.query({ limit: 1000 });
    expect(new Set(stored.map((r) => r.target)).size).toBe(300);
    // What a caller awaited before writing again (a result went out, then the next call came) stays in order.
    const first = await log.write(record(1000));
    const second = await log.write(record(1001));
    expect(second!.seq).toBeGreaterThan(first!.seq);
    await log.close();
  });

  it('retries refused batches in their order, after the ones in flight have answered, losing nothing', async () => {
    // Batches 1 and 2 are refused (both in flight at once); every later try succeeds.
    const store = new SlowStore((n) => n <= 2);
    const troubles: boolean[] = [];
    const log = new AuditLog(store, { onStoreTrouble: (e) => troubles.push(e.failing) });
    const writes = Array.from({ length: 200 }, (_, i) => log.write(record(i)));
    const sealed = await Promise.all(writes);
    // The refused batches go back in the order they were first sent: here, the order written.
    expect(sealed.map((r) => r!.target)).toEqual(Array.from({ length: 200 }, (_, i) => `t${i}`));
    expect(store.calls).toBe(3); // two refused, then everything in one batch
    expect(troubles).toEqual([true, false]);
    const check = await verifyChain((async function* () {
      for await (const r of store.iterate()) yield r;
    })());
    expect(check).toMatchObject({ ok: true, checked: 200 });
    await log.close();
  });
});

describe('canonical JSON', () => {
  it('writes a record built in key order exactly as one built in any order', () => {
    const event = {
      time: '2026-12-01T00:00:00.000Z',
      agent: 'ag"ent\u2028',
      session: 's',
      transport: 'http',
      method: 'tools/call' as const,
      target: 'files__read',
      upstream: 'files',
      outcome: 'allow' as const,
      arguments: { path: '/srv/a\ud800.txt', n: 1 },
      result: { content: [{ type: 'text', text: 'x'.repeat(2000) }] },
      findings: ['pii:email'],
      labelBefore: { integrity: 'trusted', confidentiality: 'public' } as const,
      durationMs: 0.1234567,
      traceId: undefined,
    };
    const fast = recordOf(event, 1024);
    // The same fields in reverse order take the general path (sort, then write each value).
    const slow = Object.fromEntries(Object.entries(fast).reverse());
    expect(bodyOf(fast)).toBe(canonicalJson(slow));
    expect(JSON.parse(bodyOf(fast))).toEqual(JSON.parse(JSON.stringify(fast)));
    // Nothing undefined is written, and nested values keep their canonical order.
    expect(bodyOf(fast)).not.toContain('traceId');
    expect(canonicalJson({ b: 1, a: { d: [1, { f: 1, e: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[1,{"e":2,"f":1}]},"b":1}');
    expect(canonicalJson({ a: 1, b: [undefined, 2], c: undefined })).toBe('{"a":1,"b":[null,2]}');
  });
});

describe('the audit log backs off from a refusing store', () => {
  it('waits out each backoff before trying again, however many records keep arriving', async () => {
    const tries: number[] = [];
    const store = new MemoryAuditStore();
    const append = store.append.bind(store);
    store.append = async (records) => {
      tries.push(performance.now());
      if (tries.length <= 4) throw new Error('locked');
      return append(records);
    };
    const log = new AuditLog(store);
    const first = log.write(record(0));
    // Writes keep coming every turn of the event loop while the store refuses.
    let i = 1;
    const more: Promise<unknown>[] = [];
    const feeder = setInterval(() => more.push(log.write(record(i++))), 0);
    await first;
    clearInterval(feeder);
    await Promise.all(more);
    // Backoff 1, 2, 4, 8 ms between the refused tries, by the real clock (a timer alone may fire a turn early:
    // under load this saw 1.37 ms for a 2 ms backoff).
    const gaps = tries.slice(1, 5).map((t, k) => t - tries[k]);
    gaps.forEach((gap, k) => expect(gap).toBeGreaterThanOrEqual(2 ** k));
    expect((await store.query({ limit: 10_000 })).length).toBe(i);
    await log.close();
  });
});
