import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { BOTTOM, formatLabel, join, parseLabel, sameLabel, type Label } from '../ifc/label.js';
import { ChangeListeners, LocalBus, MemoryRateLimits, Waiters, copy } from './memory-state.js';
import type {
  DefinitionPin,
  PinStore,
  ApprovalStore,
  ApprovalVerdict,
  ConsoleLogin,
  Grant,
  LabelHolder,
  LabelStore,
  PendingApproval,
  RecordStore,
  SessionRecord,
  SseStreamRecord,
  StateStores,
  SwitchName,
  SwitchStore,
} from './ports.js';
import { pinId, SWITCHES } from './ports.js';
import { EventEmitter } from 'node:events';

type Db = Database.Database;

/**
 * The embedded state store: one SQLite file (WAL) in the data dir, so labels, grants, the pause switch,
 * legacy sessions and console logins survive a restart. Statements are short single-row reads and writes;
 * WAL readers never wait for a writer. Rate-limit buckets stay in memory (losing them on restart only
 * forgives a burst).
 */
export function sqliteState(file: string, sealKey: Buffer): StateStores {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS session_labels (id TEXT PRIMARY KEY, agent TEXT NOT NULL, label TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS identity_marks (agent TEXT PRIMARY KEY, label TEXT NOT NULL);
    CREATE TABLE IF NOT EXISTS switches (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
    CREATE TABLE IF NOT EXISTS approvals (id TEXT PRIMARY KEY, session TEXT NOT NULL, body TEXT NOT NULL, verdict TEXT);
    CREATE TABLE IF NOT EXISTS grants (rowid INTEGER PRIMARY KEY, agent TEXT NOT NULL, tool TEXT NOT NULL, session TEXT, expires_at INTEGER, body TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS grants_by_tool ON grants(agent, tool);
    CREATE TABLE IF NOT EXISTS pins (id TEXT PRIMARY KEY, server TEXT NOT NULL, body TEXT NOT NULL);
    CREATE INDEX IF NOT EXISTS pins_by_server ON pins(server);
    CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, until INTEGER NOT NULL, PRIMARY KEY (kind, key));
  `);
  // Requests that were waiting when the last process stopped have nobody waiting for them any more.
  db.prepare("UPDATE approvals SET verdict = ? WHERE verdict IS NULL").run(JSON.stringify({ granted: false, outcome: 'expired', by: 'sluice', reason: 'the gateway restarted' } satisfies ApprovalVerdict));
  // "Until restart" grants belong to a process that is gone: they match no call any more (see Grant.process).
  db.prepare("DELETE FROM grants WHERE json_extract(body, '$.process') IS NOT NULL").run();
  return {
    labels: new SqliteLabels(db),
    limits: new MemoryRateLimits(),
    switches: new SqliteSwitches(db),
    approvals: new SqliteApprovals(db),
    sessions: new SqliteRecords<SessionRecord>(db, 'session'),
    consoleLogins: new SqliteRecords<ConsoleLogin>(db, 'console'),
    sseStreams: new SqliteRecords<SseStreamRecord>(db, 'sse'),
    sealKey,
    bus: new LocalBus(),
    pins: new SqlitePins(db),
    close: async () => void db.close(),
  };
}

/**
 * Tells a read cache when to forget: SQLite's `data_version` changes when another connection — another sluice
 * process on the same data dir — has committed to the file. Our own writes update the cache as they go.
 */
class Staleness {
  private readonly version: Database.Statement;
  private seen: unknown;
  private checkedAt = -Infinity;

  constructor(db: Db) {
    this.version = db.prepare('PRAGMA data_version').pluck();
    this.seen = this.version.get();
  }

  /**
   * True once after someone else wrote (the caller then drops what it cached). Asked several times per
   * request, so the pragma runs at most once a millisecond: a write by another process that lands within that
   * millisecond is as concurrent as one that lands just after the read.
   */
  changed(): boolean {
    const t = performance.now();
    if (t - this.checkedAt < 1) return false;
    this.checkedAt = t;
    const now = this.version.get();
    if (now === this.seen) return false;
    this.seen = now;
    return true;
  }
}

const CACHE_LIMIT = 10_000;

class SqliteLabels implements LabelStore {
  // Every checked request reads labels several times; the cache saves the queries, Staleness keeps it true.
  private readonly sessionCache = new Map<string, Label>();
  private readonly markCache = new Map<string, Label>();
  private readonly staleness: Staleness;
  private readonly session: Database.Statement;
  private readonly mark: Database.Statement;
  private readonly putSession: Database.Statement;
  private readonly putMark: Database.Statement;

  constructor(private readonly db: Db) {
    this.session = db.prepare('SELECT label FROM session_labels WHERE id = ?').pluck();
    this.mark = db.prepare('SELECT label FROM identity_marks WHERE agent = ?').pluck();
    this.putSession = db.prepare('INSERT INTO session_labels (id, agent, label) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET label = excluded.label');
    this.putMark = db.prepare('INSERT INTO identity_marks (agent, label) VALUES (?, ?) ON CONFLICT(agent) DO UPDATE SET label = excluded.label');
    this.staleness = new Staleness(db);
  }

  private validate(): void {
    if (!this.staleness.changed() && this.sessionCache.size < CACHE_LIMIT && this.markCache.size < CACHE_LIMIT) return;
    this.sessionCache.clear();
    this.markCache.clear();
  }

  private markOf(agent: string): Label {
    const cached = this.markCache.get(agent);
    if (cached) return cached;
    const text = this.mark.get(agent) as string | undefined;
    const label = text === undefined ? BOTTOM : parseLabel(text);
    this.markCache.set(agent, label);
    return label;
  }

  /** What the holder holds: its session's own label joined with its agent's mark, unless sessions are isolated. */
  private now(holder: LabelHolder): Label {
    this.validate();
    const mark = this.markOf(holder.agent);
    if (holder.stateless) return mark;
    const own = this.ownOf(holder, mark);
    return holder.isolated ? own : join(own, mark);
  }

  /** A session's own label; a new session starts at its identity's mark. */
  private ownOf(holder: LabelHolder, mark: Label): Label {
    const cached = this.sessionCache.get(holder.id);
    if (cached) return cached;
    const text = this.session.get(holder.id) as string | undefined;
    if (text !== undefined) {
      const label = parseLabel(text);
      this.sessionCache.set(holder.id, label);
      return label;
    }
    this.writeSession(holder, mark);
    return mark;
  }

  private writeSession(holder: LabelHolder, label: Label): void {
    this.putSession.run(holder.id, holder.agent, formatLabel(label));
    this.sessionCache.set(holder.id, label);
  }

  private writeMark(agent: string, label: Label): void {
    this.putMark.run(agent, formatLabel(label));
    this.markCache.set(agent, label);
  }

  async of(holder: LabelHolder): Promise<Label> {
    return this.now(holder);
  }

  async raise(holder: LabelHolder, seen: Label): Promise<{ before: Label; after: Label }> {
    // Most results raise nothing: two reads decide that, and only a real rise takes the write lock.
    const before = this.now(holder);
    const after = join(before, seen);
    const mark = this.markOf(holder.agent);
    if ((holder.stateless || sameLabel(before, after)) && sameLabel(mark, join(mark, after))) return { before, after };
    return this.db.transaction(() => {
      // Read again under the lock, past the cache: another process may have raised them meanwhile (labels only
      // rise, so join).
      this.sessionCache.clear();
      this.markCache.clear();
      const now = join(this.now(holder), after);
      if (!holder.stateless) this.writeSession(holder, now);
      this.writeMark(holder.agent, join(this.markOf(holder.agent), now));
      return { before, after: now };
    }).immediate();
  }

  async forget(sessionId: string): Promise<void> {
    this.db.prepare('DELETE FROM session_labels WHERE id = ?').run(sessionId);
    this.sessionCache.delete(sessionId);
  }

  async reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void> {
    const bottom = formatLabel(BOTTOM);
    this.db.transaction(() => {
      if (target.sessionId) this.db.prepare('UPDATE session_labels SET label = ? WHERE id = ?').run(bottom, target.sessionId);
      if (target.agent) {
        this.db.prepare('DELETE FROM identity_marks WHERE agent = ?').run(target.agent);
        for (const id of sessionsOfAgent) this.db.prepare('UPDATE session_labels SET label = ? WHERE id = ?').run(bottom, id);
      }
    })();
    this.sessionCache.clear();
    this.markCache.clear();
  }

  async identities(): Promise<[string, Label][]> {
    return (this.db.prepare('SELECT agent, label FROM identity_marks ORDER BY agent').all() as { agent: string; label: string }[]).map((r) => [r.agent, parseLabel(r.label)]);
  }
}

class SqliteSwitches implements SwitchStore {
  private readonly events = new EventEmitter<{ change: [SwitchName, boolean] }>();
  private readonly read: Database.Statement;
  private readonly cache = new Map<SwitchName, boolean>();
  private readonly staleness: Staleness;

  constructor(private readonly db: Db) {
    this.read = db.prepare('SELECT value FROM switches WHERE name = ?').pluck();
    this.staleness = new Staleness(db);
  }

  /** Read on every checked request: cached, and read again once another process has written. */
  async get(name: SwitchName): Promise<boolean> {
    if (this.staleness.changed()) this.cache.clear();
    let on = this.cache.get(name);
    if (on === undefined) this.cache.set(name, (on = this.read.get(name) === 1));
    return on;
  }

  async set(name: SwitchName, on: boolean): Promise<void> {
    if (!SWITCHES.includes(name)) throw new Error(`unknown switch ${String(name)}`);
    this.db.prepare('INSERT INTO switches (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value').run(name, on ? 1 : 0);
    this.cache.set(name, on);
    this.events.emit('change', name, on);
  }

  watch(listener: (name: SwitchName, on: boolean) => void): () => void {
    this.events.on('change', listener);
    return () => this.events.off('change', listener);
  }
}

class SqliteApprovals implements ApprovalStore {
  private readonly waiters = new Waiters();
  private readonly changes = new ChangeListeners();

  constructor(private readonly db: Db) {}

  async add(p: PendingApproval): Promise<void> {
    this.db.prepare('INSERT INTO approvals (id, session, body) VALUES (?, ?, ?)').run(p.id, p.session, JSON.stringify(p));
    this.changes.changed();
  }

  watch(listener: () => void): () => void {
    return this.changes.watch(listener);
  }

  async list(): Promise<PendingApproval[]> {
    return (this.db.prepare('SELECT body FROM approvals WHERE verdict IS NULL ORDER BY rowid').pluck().all() as string[]).map((b) => JSON.parse(b) as PendingApproval);
  }

  async settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined> {
    // One UPDATE that only an undecided row matches: of two decisions, exactly one wins.
    const body = this.db.prepare('UPDATE approvals SET verdict = ? WHERE id = ? AND verdict IS NULL RETURNING body').pluck().get(JSON.stringify(verdict), id) as string | undefined;
    if (body === undefined) return undefined;
    this.waiters.wake(id, verdict);
    this.changes.changed();
    // Decided requests are history (the audit log has them); keep the table small.
    this.db.prepare("DELETE FROM approvals WHERE verdict IS NOT NULL AND json_extract(body, '$.expiresAt') < ?").run(new Date(Date.now() - 3_600_000).toISOString());
    return JSON.parse(body) as PendingApproval;
  }

  wait(id: string): Promise<ApprovalVerdict> {
    const done = this.db.prepare('SELECT verdict FROM approvals WHERE id = ?').pluck().get(id) as string | null | undefined;
    return typeof done === 'string' ? Promise.resolve(JSON.parse(done) as ApprovalVerdict) : this.waiters.wait(id);
  }

  async addGrant(g: Grant): Promise<void> {
    this.db.prepare('INSERT INTO grants (agent, tool, session, expires_at, body) VALUES (?, ?, ?, ?, ?)').run(g.agent, g.tool, g.session ?? null, g.expiresAt ?? null, JSON.stringify(g));
  }

  async grants(agent: string, tool: string): Promise<Grant[]> {
    const now = Date.now();
    return (this.db.prepare('SELECT body FROM grants WHERE agent = ? AND tool = ? AND (expires_at IS NULL OR expires_at > ?)').pluck().all(agent, tool, now) as string[]).map((b) => JSON.parse(b) as Grant);
  }

  async endSession(session: string): Promise<PendingApproval[]> {
    this.db.prepare('DELETE FROM grants WHERE session = ?').run(session);
    return (this.db.prepare('SELECT body FROM approvals WHERE session = ? AND verdict IS NULL').pluck().all(session) as string[]).map((b) => JSON.parse(b) as PendingApproval);
  }
}

class SqliteRecords<T> implements RecordStore<T> {
  constructor(
    private readonly db: Db,
    private readonly kind: string,
  ) {}

  async get(key: string): Promise<T | undefined> {
    const row = this.db.prepare('SELECT value, until FROM records WHERE kind = ? AND key = ?').get(this.kind, key) as { value: string; until: number } | undefined;
    if (!row) return undefined;
    if (row.until <= Date.now()) {
      await this.delete(key);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async put(key: string, value: T, ttlMs: number): Promise<void> {
    const now = Date.now();
    this.db
      .prepare('INSERT INTO records (kind, key, value, until) VALUES (?, ?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value, until = excluded.until')
      .run(this.kind, key, JSON.stringify(copy(value)), now + ttlMs);
    if (Math.random() < 0.01) this.db.prepare('DELETE FROM records WHERE until <= ?').run(now);
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    const now = Date.now();
    this.db.prepare('UPDATE records SET until = ? WHERE kind = ? AND key = ? AND until > ?').run(now + ttlMs, this.kind, key, now);
  }

  async delete(key: string): Promise<void> {
    this.db.prepare('DELETE FROM records WHERE kind = ? AND key = ?').run(this.kind, key);
  }
}

/** Pins as JSON rows, one per server, kind and name; a discovery's pins are written in one transaction. */
class SqlitePins implements PinStore {
  private readonly all: Database.Statement;
  private readonly ofServer: Database.Statement;
  private readonly one: Database.Statement;
  private readonly write: (pins: readonly DefinitionPin[]) => void;

  constructor(db: Database.Database) {
    this.all = db.prepare('SELECT body FROM pins').pluck();
    this.ofServer = db.prepare('SELECT body FROM pins WHERE server = ?').pluck();
    this.one = db.prepare('SELECT body FROM pins WHERE id = ?').pluck();
    const upsert = db.prepare('INSERT INTO pins (id, server, body) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET server = excluded.server, body = excluded.body');
    this.write = db.transaction((pins: readonly DefinitionPin[]) => {
      for (const p of pins) upsert.run(pinId(p), p.server, JSON.stringify(p));
    });
  }

  async list(server?: string): Promise<DefinitionPin[]> {
    const rows = (server === undefined ? this.all.all() : this.ofServer.all(server)) as string[];
    return rows.map((r) => JSON.parse(r) as DefinitionPin);
  }

  async get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined> {
    const row = this.one.get(pinId({ server, kind, name })) as string | undefined;
    return row === undefined ? undefined : (JSON.parse(row) as DefinitionPin);
  }

  async put(pins: readonly DefinitionPin[]): Promise<void> {
    this.write(pins);
  }
}
