import type Database from 'better-sqlite3';
import { copy } from '../memory-state.js';
import type { RecordStore } from '../ports.js';

type Statement<P extends unknown[], R = unknown> = Database.Statement<P, R>;

/** Records of one kind in the shared `records` table; every statement prepared once, with the store. */
export class SqliteRecords<T> implements RecordStore<T> {
  private readonly read: Statement<[string, string], { value: string; until: number }>;
  private readonly write: Statement<[string, string, string, number]>;
  private readonly extend: Statement<[number, string, string, number]>;
  private readonly drop: Statement<[string, string]>;
  private readonly sweep: Statement<[number]>;

  constructor(
    db: Database.Database,
    private readonly kind: string,
  ) {
    this.read = db.prepare('SELECT value, until FROM records WHERE kind = ? AND key = ?');
    this.write = db.prepare('INSERT INTO records (kind, key, value, until) VALUES (?, ?, ?, ?) ON CONFLICT(kind, key) DO UPDATE SET value = excluded.value, until = excluded.until');
    this.extend = db.prepare('UPDATE records SET until = ? WHERE kind = ? AND key = ? AND until > ?');
    this.drop = db.prepare('DELETE FROM records WHERE kind = ? AND key = ?');
    this.sweep = db.prepare('DELETE FROM records WHERE until <= ?');
  }

  async get(key: string): Promise<T | undefined> {
    const row = this.read.get(this.kind, key);
    if (!row) return undefined;
    if (row.until <= Date.now()) {
      await this.delete(key);
      return undefined;
    }
    return JSON.parse(row.value) as T;
  }

  async put(key: string, value: T, ttlMs: number): Promise<void> {
    const now = Date.now();
    this.write.run(this.kind, key, JSON.stringify(copy(value)), now + ttlMs);
    if (Math.random() < 0.01) this.sweep.run(now);
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    const now = Date.now();
    this.extend.run(now + ttlMs, this.kind, key, now);
  }

  async delete(key: string): Promise<void> {
    this.drop.run(this.kind, key);
  }
}
