import { bodyOf, GENESIS, hashRecord, recordFromStored, type AuditRecord, type StoredRecord, type UnsealedRecord } from './chain.js';
import { columnsMatch, columnsOf, columnText, type Anchor, type AuditQuery, type Columns, type AuditStore, type Signature, type VerifiableRecord } from './store.js';
import { targetMatcher } from './target-glob.js';

type Row = StoredRecord & Columns;

/**
 * The audit store in memory: the same chain, the same filters, gone when the process ends. For tests and for
 * library use where nothing should touch the disk. Rows hold strings only, so nothing handed in or out is
 * shared by reference.
 */
export class MemoryAuditStore implements AuditStore {
  private rows: Row[] = [];
  private anchorAt: Anchor = { seq: 0, hash: GENESIS };
  private readonly sigs = new Map<number, Signature>();

  async append(records: UnsealedRecord[]): Promise<AuditRecord[]> {
    let head = this.headNow();
    return records.map((r) => {
      const body = bodyOf(r);
      const seq = head.seq + 1;
      const prevHash = head.hash;
      const hash = hashRecord(prevHash, seq, body);
      this.rows.push({ seq, prevHash, hash, body, ...columnsOf(r) });
      head = { seq, hash };
      return { ...r, seq, prevHash, hash };
    });
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    // Text is compared as the columns keep it (see columnsOf), as in the other stores.
    const target = q.target ? targetMatcher(columnText(q.target)) : undefined;
    const keep = (r: Row) =>
      (!q.agent || r.agent === columnText(q.agent)) &&
      (!target || target(r.target)) &&
      (!q.outcome || r.outcome === columnText(q.outcome)) &&
      (!q.since || r.time >= columnText(q.since)) &&
      (!q.until || r.time <= columnText(q.until)) &&
      (q.afterSeq === undefined || r.seq > q.afterSeq) &&
      (q.beforeSeq === undefined || r.seq < q.beforeSeq);
    const ordered = q.newestFirst ? [...this.rows].reverse() : this.rows;
    const out: AuditRecord[] = [];
    for (const r of ordered) {
      if (out.length >= (q.limit ?? 1000)) break;
      if (keep(r)) out.push(recordFromStored(r));
    }
    return out;
  }

  async *iterate(afterSeq?: number): AsyncIterable<VerifiableRecord> {
    for (const r of this.rows) {
      if (r.seq <= (afterSeq ?? 0)) continue;
      const c = columnsMatch(r.body, r);
      yield { seq: r.seq, prevHash: r.prevHash, hash: r.hash, body: r.body, kind: c.kind, target: c.target, columnsMatch: c.match };
    }
  }

  async anchor(): Promise<Anchor> {
    return { ...this.anchorAt };
  }

  async head(): Promise<Anchor> {
    return this.headNow();
  }

  private headNow(): Anchor {
    const last = this.rows[this.rows.length - 1];
    return last ? { seq: last.seq, hash: last.hash } : { ...this.anchorAt };
  }

  async prune(beforeSeq: number): Promise<number> {
    const dropped = this.rows.filter((r) => r.seq < beforeSeq);
    if (dropped.length === 0) return 0;
    const last = dropped[dropped.length - 1];
    this.rows = this.rows.filter((r) => r.seq >= beforeSeq);
    this.anchorAt = { seq: last.seq, hash: last.hash };
    return dropped.length;
  }

  async addSignature(s: Signature): Promise<void> {
    this.sigs.set(s.seq, { ...s });
  }

  async signatures(): Promise<Signature[]> {
    return [...this.sigs.values()].sort((a, b) => a.seq - b.seq).map((s) => ({ ...s }));
  }

  async close(): Promise<void> {}
}
