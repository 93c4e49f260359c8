import type Database from 'better-sqlite3';
import { BOTTOM, formatLabel, join, parseLabel, sameLabel, type Label } from '../../ifc/label.js';
import type { LabelHolder, LabelStore } from '../ports.js';
import { Staleness } from './staleness.js';

const CACHE_LIMIT = 10_000;

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** Session labels and identity marks in two tables; every statement prepared once, with the store. */
export class SqliteLabels implements LabelStore {
  // Every checked request reads labels several times; the cache saves the queries, Staleness keeps it true.
  private readonly sessionCache = new Map<string, Label>();
  private readonly markCache = new Map<string, Label>();
  private readonly staleness: Staleness;
  private readonly session: Statement<[string], string>;
  private readonly mark: Statement<[string], string>;
  private readonly putSession: Statement<[string, string, string]>;
  private readonly putMark: Statement<[string, string]>;
  private readonly dropSession: Statement<[string]>;
  private readonly lowerSession: Statement<[string, string]>;
  private readonly dropMark: Statement<[string]>;
  private readonly marks: Statement<[], { agent: string; label: string }>;
  private readonly raiseLocked: Database.Transaction<(holder: LabelHolder, after: Label) => Label>;
  private readonly resetLocked: Database.Transaction<(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]) => void>;

  constructor(db: Database.Database) {
    this.session = db.prepare<[string], string>('SELECT label FROM session_labels WHERE id = ?').pluck();
    this.mark = db.prepare<[string], string>('SELECT label FROM identity_marks WHERE agent = ?').pluck();
    this.putSession = db.prepare('INSERT INTO session_labels (id, agent, label) VALUES (?, ?, ?) ON CONFLICT(id) DO UPDATE SET label = excluded.label');
    this.putMark = db.prepare('INSERT INTO identity_marks (agent, label) VALUES (?, ?) ON CONFLICT(agent) DO UPDATE SET label = excluded.label');
    this.dropSession = db.prepare('DELETE FROM session_labels WHERE id = ?');
    this.lowerSession = db.prepare('UPDATE session_labels SET label = ? WHERE id = ?');
    this.dropMark = db.prepare('DELETE FROM identity_marks WHERE agent = ?');
    this.marks = db.prepare('SELECT agent, label FROM identity_marks ORDER BY agent');
    this.raiseLocked = db.transaction((holder: LabelHolder, after: Label) => {
      // Read again under the lock, past the cache: another process may have raised them meanwhile (labels only
      // rise, so join).
      this.forgetCached();
      const now = join(this.now(holder), after);
      if (!holder.stateless) this.writeSession(holder, now);
      this.writeMark(holder.agent, join(this.markOf(holder.agent), now));
      return now;
    });
    this.resetLocked = db.transaction((target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]) => {
      const bottom = formatLabel(BOTTOM);
      if (target.sessionId) this.lowerSession.run(bottom, target.sessionId);
      if (target.agent) {
        this.dropMark.run(target.agent);
        for (const id of sessionsOfAgent) this.lowerSession.run(bottom, id);
      }
    });
    this.staleness = new Staleness(db);
  }

  private forgetCached(): void {
    this.sessionCache.clear();
    this.markCache.clear();
  }

  private validate(): void {
    if (!this.staleness.changed() && this.sessionCache.size < CACHE_LIMIT && this.markCache.size < CACHE_LIMIT) return;
    this.forgetCached();
  }

  private markOf(agent: string): Label {
    const cached = this.markCache.get(agent);
    if (cached) return cached;
    const text = this.mark.get(agent);
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
    const text = this.session.get(holder.id);
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
    return { before, after: this.raiseLocked.immediate(holder, after) };
  }

  async forget(sessionId: string): Promise<void> {
    this.dropSession.run(sessionId);
    this.sessionCache.delete(sessionId);
  }

  async reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void> {
    this.resetLocked(target, sessionsOfAgent);
    this.forgetCached();
  }

  async identities(): Promise<[string, Label][]> {
    return this.marks.all().map((r) => [r.agent, parseLabel(r.label)]);
  }
}
