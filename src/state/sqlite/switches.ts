import type Database from 'better-sqlite3';
import { Listeners } from '../memory-state.js';
import { SWITCHES, type SwitchName, type SwitchStore } from '../ports.js';
import { Staleness } from './staleness.js';

export class SqliteSwitches implements SwitchStore {
  private readonly changes = new Listeners<[SwitchName, boolean]>();
  private readonly read: Database.Statement<[string], number>;
  private readonly write: Database.Statement<[string, number]>;
  private readonly cache = new Map<SwitchName, boolean>();
  private readonly staleness: Staleness;

  constructor(db: Database.Database) {
    this.read = db.prepare<[string], number>('SELECT value FROM switches WHERE name = ?').pluck();
    this.write = db.prepare('INSERT INTO switches (name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value');
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
    this.write.run(name, on ? 1 : 0);
    this.cache.set(name, on);
    this.changes.tell(name, on);
  }

  watch(listener: (name: SwitchName, on: boolean) => void): () => void {
    return this.changes.watch(listener);
  }
}
