/**
 * The audit log's write rate in Postgres against SQLite: records hashed, chained and committed through
 * `AuditLog` (group commit: each batch is whatever queued while the previous one committed), by one writer and
 * by three writers sharing one log — three gateway replicas, each with its own store and log, all extending
 * one chain. Every writer keeps 256 records in flight, as a gateway under load does. Postgres is a local
 * embedded server with its production defaults (fsync on, synchronous_commit on); SQLite is WAL with
 * synchronous NORMAL, the gateway's default, its three writers on one file as three processes would be.
 * Each figure is the median of a few rounds, each on a fresh database; every round's chain is verified.
 *
 *   node --import tsx bench/audit-postgres.ts
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freshDatabase, startPostgres } from '../test/helpers/postgres.js';
import { sample } from './audit.js';
import { AuditLog, type AuditStore, openPostgresAuditStore, SqliteAuditStore, verifyStore } from './sluice-internals.js';
import { median } from './stats.js';

export interface AuditStoreFigure {
  store: 'postgres' | 'sqlite';
  writers: number;
  records: number;
  /** Median over the rounds. */
  perSecond: number;
  rounds: number[];
  /** Records per transaction, on average: how much group commit gathered. */
  perCommit: number;
}

const IN_FLIGHT = 256;

/** A fresh, empty log for `writers` writers: one store each, on one database or one file. */
type Fresh = (writers: number) => Promise<{ stores: AuditStore[]; reopen(): Promise<AuditStore>; cleanup(): void }>;

async function round(fresh: Fresh, writers: number, records: number): Promise<{ perSecond: number; commits: number }> {
  const { stores, reopen, cleanup } = await fresh(writers);
  const logs = stores.map((s) => new AuditLog(s));
  let commits = 0;
  for (const log of logs) log.on('appended', () => commits++);
  let next = 0;
  const started = process.hrtime.bigint();
  await Promise.all(
    logs.flatMap((log) =>
      Array.from({ length: IN_FLIGHT }, async () => {
        while (next < records) await log.write(sample(next++));
      }),
    ),
  );
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  await Promise.all(logs.map((l) => l.close()));
  // Not timed: the writers must have made one unbroken chain of every record.
  const check = await reopen();
  const verified = await verifyStore(check);
  await check.close();
  cleanup();
  if (!verified.ok || verified.checked !== records) throw new Error(`the chain does not verify: ${JSON.stringify(verified)}`);
  return { perSecond: records / seconds, commits };
}

async function measure(store: AuditStoreFigure['store'], fresh: Fresh, writers: number, records: number, rounds: number): Promise<AuditStoreFigure> {
  await round(fresh, writers, Math.min(records, 2_000)); // warm-up: JIT, connections, the server's caches
  const results = [];
  for (let r = 0; r < rounds; r++) results.push(await round(fresh, writers, records));
  const perCommit = (results.length * records) / results.reduce((n, r) => n + r.commits, 0);
  return { store, writers, records, perSecond: median(results.map((r) => r.perSecond)), rounds: results.map((r) => r.perSecond), perCommit };
}

export async function measureAuditStores(records = 20_000, rounds = 3): Promise<AuditStoreFigure[]> {
  const figures: AuditStoreFigure[] = [];
  const server = await startPostgres({ durable: true });
  try {
    const postgres: Fresh = async (writers) => {
      const url = await freshDatabase(server.url);
      // Opened one after another: the first creates the tables (concurrent opens are tested, not measured).
      const stores: AuditStore[] = [];
      for (let i = 0; i < writers; i++) stores.push(await openPostgresAuditStore(url));
      return { stores, reopen: () => openPostgresAuditStore(url), cleanup: () => undefined };
    };
    for (const writers of [1, 3]) figures.push(await measure('postgres', postgres, writers, records, rounds));
  } finally {
    await server.stop();
  }
  const sqlite: Fresh = async (writers) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'sluice-audit-bench-'));
    const file = path.join(dir, 'audit.db');
    // busyTimeoutMs 0, as the gateway opens it: a writer that meets another's lock retries from the log.
    const stores = Array.from({ length: writers }, () => new SqliteAuditStore(file, { busyTimeoutMs: 0 }));
    return { stores, reopen: async () => new SqliteAuditStore(file), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
  };
  for (const writers of [1, 3]) figures.push(await measure('sqlite', sqlite, writers, records, rounds));
  return figures;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const figures = await measureAuditStores(Number(process.env.BENCH_AUDIT_RECORDS ?? 20_000), Number(process.env.BENCH_AUDIT_ROUNDS ?? 3));
  const n = (x: number) => Math.round(x).toLocaleString('en-US');
  console.log('| store | writers | records | records/s (median) | rounds | records per commit |');
  console.log('| --- | ---: | ---: | ---: | --- | ---: |');
  for (const f of figures) console.log(`| ${f.store} | ${f.writers} | ${f.records} | ${n(f.perSecond)} | ${f.rounds.map(n).join(', ')} | ${f.perCommit.toFixed(0)} |`);
}
