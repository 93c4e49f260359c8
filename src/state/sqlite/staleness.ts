import type Database from 'better-sqlite3';

/**
 * Tells a read cache when to forget: SQLite's `data_version` changes when another connection — another sluice
 * process on the same data dir — has committed to the file. Our own writes update the cache as they go.
 */
export class Staleness {
  private readonly version: Database.Statement<[], number>;
  private seen: number | undefined;
  private checkedAt = -Infinity;

  constructor(db: Database.Database) {
    this.version = db.prepare<[], number>('PRAGMA data_version').pluck();
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
