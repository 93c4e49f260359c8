import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { bodyOf, GENESIS, hashRecord, recordFromStored, type AuditRecord, type StoredRecord, type UnsealedRecord } from './chain.js';
import { columnsMatch, columnsOf, columnText, type Anchor, type AuditQuery, type AuditStore, type Signature, type VerifiableRecord } from './store.js';
import { targetMatcher } from './target-glob.js';

export interface SqliteAuditOptions {
  synchronous?: 'normal' | 'full';
  /**
   * How long a call may wait for another process's write lock. The gateway uses 0: a locked file must delay
   * records, never the event loop — the log above retries. The CLI, which has nothing else to do, waits.
   */
  busyTimeoutMs?: number;
}

const PAGE = 1000;

/**
 * The embedded audit store: SQLite in WAL mode. Each record is kept as its canonical JSON (what the hash
 * covers) plus a few indexed columns for filtering, made from it by `columnsOf`. Appends run in BEGIN
 * IMMEDIATE transactions, so several gateway processes on one file queue up behind each other and always
 * extend the chain from its true head: it never forks. better-sqlite3 is synchronous; every statement here is short (one batch, one page), and
 * with `busyTimeoutMs: 0` none of them ever waits for a lock.
 */
export class SqliteAuditStore implements AuditStore {
  private readonly db: Database.Database;
  private readonly appendTx: (records: UnsealedRecord[]) => AuditRecord[];

  constructor(file: string, options: SqliteAuditOptions = {}) {
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    this.db = new Database(file);
    // Opening may meet another writer's lock: wait for it here, once, before traffic flows.
    this.db.pragma('busy_timeout = 10000');
    this.db.pragma('journal_mode = WAL');
    // NORMAL in WAL mode: a commit survives the process being killed (it is in the WAL); FULL also fsyncs
    // every commit, for power loss — group commit keeps either affordable.
    this.db.pragma(`synchronous = ${options.synchronous === 'full' ? 'FULL' : 'NORMAL'}`);
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
    this.db.pragma(`busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
    // The target filter has sluice's meaning, not SQLite GLOB's (which has character classes).
    const matchers = new Map<string, (t: string) => boolean>();
    this.db.function('sluice_target', { deterministic: true }, (glob: unknown, target: unknown) => {
      const g = String(glob);
      let m = matchers.get(g);
      if (!m) {
        if (matchers.size > 100) matchers.clear();
        matchers.set(g, (m = targetMatcher(g)));
      }
      return m(String(target)) ? 1 : 0;
    });
    const last = this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    const insert = this.db.prepare('INSERT INTO audit (seq, time, agent, target, outcome, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
    const tx = this.db.transaction((records: UnsealedRecord[], bodies: string[]) => {
      let head = (last.get() as Anchor | undefined) ?? this.anchorNow();
      return records.map((r, i) => {
        const seq = head.seq + 1;
        const hash = hashRecord(head.hash, seq, bodies[i]);
        const c = columnsOf(r);
        insert.run(seq, c.time, c.agent, c.target, c.outcome, head.hash, hash, bodies[i]);
        const sealed: AuditRecord = { ...r, seq, prevHash: head.hash, hash };
        head = sealed;
        return sealed;
      });
    });
    // Bodies are made before the write lock is taken: the lock is held only for hashing and inserting.
    this.appendTx = (records) => tx.immediate(records, records.map(bodyOf));
  }

  async append(records: UnsealedRecord[]): Promise<AuditRecord[]> {
    return this.appendTx(records);
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    // Text is compared as the columns keep it (see columnsOf).
    const add = (sql: string, value: string | number) => (where.push(sql), args.push(typeof value === 'string' ? columnText(value) : value));
    if (q.agent) add('agent = ?', q.agent);
    if (q.target) add('sluice_target(?, target) = 1', q.target);
    if (q.outcome) add('outcome = ?', q.outcome);
    if (q.since) add('time >= ?', q.since);
    if (q.until) add('time <= ?', q.until);
    if (q.afterSeq !== undefined) add('seq > ?', q.afterSeq);
    if (q.beforeSeq !== undefined) add('seq < ?', q.beforeSeq);
    const sql = `SELECT seq, prev_hash AS prevHash, hash, body FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${q.newestFirst ? 'DESC' : 'ASC'} LIMIT ?`;
    args.push(q.limit ?? 1000);
    return (this.db.prepare(sql).all(...args) as StoredRecord[]).map(recordFromStored);
  }

  async *iterate(afterSeq?: number): AsyncIterable<VerifiableRecord> {
    const page = this.db.prepare('SELECT seq, prev_hash AS prevHash, hash, body, time, agent, target, outcome FROM audit WHERE seq > ? ORDER BY seq LIMIT ?');
    let after = afterSeq ?? 0;
    for (;;) {
      const rows = page.all(after, PAGE) as (StoredRecord & { time: string; agent: string; target: string; outcome: string })[];
      for (const row of rows) {
        const c = columnsMatch(row.body, row);
        yield { seq: row.seq, prevHash: row.prevHash, hash: row.hash, body: row.body, kind: c.kind, target: c.target, columnsMatch: c.match };
      }
      if (rows.length < PAGE) return;
      after = rows[rows.length - 1].seq;
      // Let other work run between pages: verifying a long log must not stall the gateway.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async anchor(): Promise<Anchor> {
    return this.anchorNow();
  }

  private anchorNow(): Anchor {
    return (this.db.prepare('SELECT seq, hash FROM audit_anchor WHERE id = 1').get() as Anchor | undefined) ?? { seq: 0, hash: GENESIS };
  }

  async head(): Promise<Anchor> {
    return (this.db.prepare('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1').get() as Anchor | undefined) ?? this.anchorNow();
  }

  async prune(beforeSeq: number): Promise<number> {
    return this.db.transaction(() => {
      const last = this.db.prepare('SELECT seq, hash FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT 1').get(beforeSeq) as Anchor | undefined;
      if (!last) return 0;
      const removed = this.db.prepare('DELETE FROM audit WHERE seq <= ?').run(last.seq).changes;
      this.db.prepare('INSERT INTO audit_anchor (id, seq, hash) VALUES (1, ?, ?) ON CONFLICT(id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash').run(last.seq, last.hash);
      return removed;
    }).immediate();
  }

  async addSignature(s: Signature): Promise<void> {
    this.db.prepare('INSERT OR REPLACE INTO audit_signatures (seq, hash, signature, time) VALUES (?, ?, ?, ?)').run(s.seq, s.hash, s.signature, s.time);
  }

  async signatures(): Promise<Signature[]> {
    return this.db.prepare('SELECT seq, hash, signature, time FROM audit_signatures ORDER BY seq').all() as Signature[];
  }

  async close(): Promise<void> {
    this.db.close();
  }
}
