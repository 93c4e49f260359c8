import { mkdirSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { LocalBus, MemoryRateLimits } from './memory-state.js';
import type { ApprovalVerdict, ConsoleLogin, SessionRecord, SseStreamRecord, StateStores } from './ports.js';
import { SqliteApprovals } from './sqlite/approvals.js';
import { SqliteLabels } from './sqlite/labels.js';
import { SqlitePins } from './sqlite/pins.js';
import { SqliteRecords } from './sqlite/records.js';
import { SqliteSwitches } from './sqlite/switches.js';

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS session_labels (id TEXT PRIMARY KEY, agent TEXT NOT NULL, label TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS identity_marks (agent TEXT PRIMARY KEY, label TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS switches (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS approvals (id TEXT PRIMARY KEY, session TEXT NOT NULL, body TEXT NOT NULL, verdict TEXT);
  CREATE TABLE IF NOT EXISTS grants (rowid INTEGER PRIMARY KEY, agent TEXT NOT NULL, tool TEXT NOT NULL, session TEXT, expires_at INTEGER, body TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS grants_by_tool ON grants(agent, tool);
  CREATE TABLE IF NOT EXISTS pins (id TEXT PRIMARY KEY, server TEXT NOT NULL, body TEXT NOT NULL);
  CREATE INDEX IF NOT EXISTS pins_by_server ON pins(server);
  CREATE TABLE IF NOT EXISTS records (kind TEXT NOT NULL, key TEXT NOT NULL, value TEXT NOT NULL, until INTEGER NOT NULL, PRIMARY KEY (kind, key));
`;

/**
 * The embedded state store: one SQLite file (WAL) in the data dir, so labels, grants, the pause switch,
 * legacy sessions and console logins survive a restart. Statements are short single-row reads and writes,
 * each prepared once when the store opens; WAL readers never wait for a writer. Rate-limit buckets stay in
 * memory (losing them on restart only forgives a burst).
 */
export function sqliteState(file: string, sealKey: Buffer): StateStores {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const db = new Database(file);
  db.pragma('busy_timeout = 5000');
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(SCHEMA);
  // Requests that were waiting when the last process stopped have nobody waiting for them any more.
  db.prepare('UPDATE approvals SET verdict = ? WHERE verdict IS NULL').run(JSON.stringify({ granted: false, outcome: 'expired', by: 'sluice', reason: 'the gateway restarted' } satisfies ApprovalVerdict));
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
