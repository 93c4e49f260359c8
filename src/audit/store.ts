import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { bodyOf, GENESIS, hashRecord, recordFromStored, type AuditRecord, type StoredRecord, type UnsealedRecord } from './chain.js';

export interface AuditQuery {
  agent?: string;
  target?: string;
  outcome?: string;
  since?: string;
  until?: string;
  afterSeq?: number;
  beforeSeq?: number;
  limit?: number;
  /** Newest first (for tables) instead of oldest first (for export and verify). */
  newestFirst?: boolean;
}

export interface Signature {
  seq: number;
  hash: string;
  signature: string;
  time: string;
}

/** Where the chain starts: the genesis, or after retention pruning the last pruned record. */
export interface Anchor {
  seq: number;
  hash: string;
}

/**
 * The audit log's storage. The embedded one is SQLite; a Postgres store for clusters implements the same
 * interface.
 */
export interface AuditStore {
  /** Seals and appends records in one transaction, after whatever any other writer appended last. */
  append(records: UnsealedRecord[]): AuditRecord[];
  query(q: AuditQuery): AuditRecord[];
  /** Every record in order from the anchor, as stored, for verification; streamed, not loaded at once. */
  iterate(afterSeq?: number): IterableIterator<StoredRecord & { kind: string; target: string; columnsMatch: boolean }>;
  anchor(): Anchor;
  head(): Anchor;
  /** Deletes records before `seq` and moves the anchor to the last one deleted. */
  prune(beforeSeq: number): number;
  addSignature(s: Signature): void;
  signatures(): Signature[];
  close(): void;
}

/**
 * SQLite (WAL) store. Each record is kept as its canonical JSON (what the hash covers) plus a few indexed
 * columns for filtering. Appends run in BEGIN IMMEDIATE transactions, so several gateway processes on one
 * file queue up behind each other and always extend the chain from its true head: it never forks.
 */
export class SqliteAuditStore implements AuditStore {
  private readonly db: Database.Database;
  private readonly appendTx: (records: UnsealedRecord[]) => AuditRecord[];

  constructor(file: string, options: { synchronous?: 'normal' | 'full' } = {}) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.db = new Database(file);
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives the process being killed (it is in the WAL); FULL also fsyncs
    // every commit, for power loss — group commit keeps either affordable.
    this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
    this.db.pragma('busy_timeout = 10000');
    // Checkpoint the WAL in larger steps (16 MiB of 4 KiB pages): fewer stalls in the middle of a burst of
    // commits. (Bigger pages made batched writes faster but every single commit dearer: each writes whole pages.)
    this.db.pragma('wal_autocheckpoint = 4000');
    this.db.exec(`
      CREATE TABLE IF NOT EXISTS audit (
        seq INTEGER PRIMARY KEY,
        time TEXT NOT NULL,
        agent TEXT NOT NULL,
        target TEXT NOT NULL,
        outcome TEXT NOT NULL,
        prev_hash TEXT NOT NULL,
        hash TEXT NOT NULL,
        body TEXT NOT NULL
      );
      CREATE INDEX IF NOT EXISTS audit_agent ON audit(agent, seq);
      CREATE TABLE IF NOT EXISTS audit_anchor (id INTEGER PRIMARY KEY CHECK (id = 1), seq INTEGER NOT NULL, hash TEXT NOT NULL);
      CREATE TABLE IF NOT EXISTS audit_signatures (seq INTEGER PRIMARY KEY, hash TEXT NOT NULL, signature TEXT NOT NULL, time TEXT NOT NULL);
    `);
    const last = this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    const insert = this.db.prepare('INSERT INTO audit (seq, time, agent, target, outcome, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const tx = this.db.transaction((records: UnsealedRecord[], bodies: string[]) => {
      let head = (last.get() as Anchor | undefined) ?? this.anchor();
      return records.map((r, i) => {
        const seq = head.seq + 1;
        const hash = hashRecord(head.hash, seq, bodies[i]);
        insert.run(seq, r.time, r.agent, r.target, r.outcome, head.hash, hash, bodies[i]);
        const sealed: AuditRecord = { ...r, seq, prevHash: head.hash, hash };
        head = sealed;
        return sealed;
      });
    });
    // Bodies are made before the write lock is taken: the lock is held only for hashing and inserting.
    this.appendTx = (records) => tx.immediate(records, records.map(bodyOf));
  }

  append(records: UnsealedRecord[]): AuditRecord[] {
    return this.appendTx(records);
  }

  query(q: AuditQuery): AuditRecord[] {
    const where: string[] = [];
    const args: (string | number)[] = [];
    if (q.agent) (where.push('agent = ?'), args.push(q.agent));
    // GLOB: `*` and `?` are wildcards, everything else (`_` in tool names too) is literal and case matters.
    if (q.target) (where.push('target GLOB ?'), args.push(q.target));
    if (q.outcome) (where.push('outcome = ?'), args.push(q.outcome));
    if (q.since) (where.push('time >= ?'), args.push(q.since));
    if (q.until) (where.push('time <= ?'), args.push(q.until));
    if (q.afterSeq !== undefined) (where.push('seq > ?'), args.push(q.afterSeq));
    if (q.beforeSeq !== undefined) (where.push('seq < ?'), args.push(q.beforeSeq));
    const sql = `SELECT seq, prev_hash AS prevHash, hash, body FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${q.newestFirst ? 'DESC' : 'ASC'} LIMIT ?`;
    args.push(q.limit ?? 1000);
    return (this.db.prepare(sql).all(...args) as StoredRecord[]).map(recordFromStored);
  }

  *iterate(afterSeq = 0): IterableIterator<StoredRecord & { kind: string; target: string; columnsMatch: boolean }> {
    const rows = this.db.prepare('SELECT seq, prev_hash AS prevHash, hash, body, time, agent, target, outcome FROM audit WHERE seq > ? ORDER BY seq').iterate(afterSeq) as IterableIterator<
      StoredRecord & { time: string; agent: string; target: string; outcome: string }
    >;
    for (const row of rows) {
      const body = JSON.parse(row.body) as { kind?: string; time?: string; agent?: string; target?: string; outcome?: string };
      // The indexed columns (what filters search) must agree with the hashed body.
      const columnsMatch = body.time === row.time && body.agent === row.agent && body.target === row.target && body.outcome === row.outcome;
      yield { seq: row.seq, prevHash: row.prevHash, hash: row.hash, body: row.body, kind: body.kind ?? '', target: body.target ?? '', columnsMatch };
    }
  }

  anchor(): Anchor {
    return (this.db.prepare('SELECT seq, hash FROM audit_anchor WHERE id = 1').get() as Anchor | undefined) ?? { seq: 0, hash: GENESIS };
  }

  head(): Anchor {
    return (this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as Anchor | undefined) ?? this.anchor();
  }

  prune(beforeSeq: number): number {
    return this.db.transaction(() => {
      const last = this.db.prepare('SELECT seq, hash FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT 1').get(beforeSeq) as Anchor | undefined;
      if (!last) return 0;
      const removed = this.db.prepare('DELETE FROM audit WHERE seq <= ?').run(last.seq).changes;
      this.db.prepare('INSERT INTO audit_anchor (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash').run(last.seq, last.hash);
      return removed;
    }).immediate();
  }

  addSignature(s: Signature): void {
    this.db.prepare('INSERT OR REPLACE INTO audit_signatures (seq, hash, signature, time) VALUES (?, ?, ?, ?)').run(s.seq, s.hash, s.signature, s.time);
  }

  signatures(): Signature[] {
    return this.db.prepare('SELECT seq, hash, signature, time FROM audit_signatures ORDER BY seq').all() as Signature[];
  }

  close(): void {
    this.db.close();
  }
}
