import pg from 'pg';
import { bodyOf, GENESIS, recordFromStored, type AuditRecord, type UnsealedRecord } from './chain.js';
import { columnsMatch, columnsOf, columnText, type Anchor, type AuditQuery, type AuditStore, type Signature, type VerifiableRecord } from './store.js';

export interface PostgresAuditOptions {
  /** Most connections this process opens (appends are serialised by a lock anyway; reads may overlap). */
  maxConnections?: number;
  /** How long connecting may take before the call rejects (the log above retries). */
  connectTimeoutMs?: number;
  /** How long one statement may run — waiting for the chain lock included — before it is cancelled. */
  statementTimeoutMs?: number;
}

const PAGE = 1000;

/**
 * Advisory lock keys (two int4 form; 0x736c7563 is "sluc"). Advisory locks are per database, so one key
 * serialises every writer of this database's chain and nothing else.
 */
const CHAIN_LOCK = '1936487779, 1';
const SCHEMA_LOCK = '1936487779, 2';

// COLLATE "C" on the text columns: comparisons, LIKE and time ranges are by code point, as in SQLite and the
// memory store — never reordered or folded by a locale.
const SCHEMA = `
  CREATE TABLE IF NOT EXISTS audit (
    seq BIGINT PRIMARY KEY,
    time TEXT COLLATE "C" NOT NULL,
    agent TEXT COLLATE "C" NOT NULL,
    target TEXT COLLATE "C" NOT NULL,
    outcome TEXT COLLATE "C" NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    body TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS audit_agent ON audit (agent, seq);
  CREATE TABLE IF NOT EXISTS audit_anchor (id INTEGER PRIMARY KEY CHECK (id = 1), seq BIGINT NOT NULL, hash TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS audit_signatures (seq BIGINT PRIMARY KEY, hash TEXT NOT NULL, signature TEXT NOT NULL, time TEXT NOT NULL);
`;

// One statement for the whole batch: eight arrays, one row per index.
/**
 * One append in one round trip: the function takes the chain lock, reads the head, hashes each record exactly
 * as chain.ts does — sha256 over "prevHash\nseq\nbody" in UTF-8 — and inserts the batch; the statement is its
 * own transaction, so the lock goes with its commit. Five round trips per batch (begin, lock, head, insert,
 * commit) cost more than the rest of an append put together when calls come one at a time.
 */
const APPEND_FUNCTION = `
  CREATE OR REPLACE FUNCTION sluice_audit_append_v1(p_time text[], p_agent text[], p_target text[], p_outcome text[], p_body text[])
  RETURNS TABLE (seq bigint, prev_hash text, hash text) LANGUAGE plpgsql AS $fn$
  #variable_conflict use_column
  DECLARE
    head_seq bigint;
    head_hash text;
    seqs bigint[] := '{}';
    prevs text[] := '{}';
    hashes text[] := '{}';
  BEGIN
    PERFORM pg_advisory_xact_lock(${CHAIN_LOCK});
    SELECT a.seq, a.hash INTO head_seq, head_hash FROM audit a ORDER BY a.seq DESC LIMIT 1;
    IF head_seq IS NULL THEN
      SELECT an.seq, an.hash INTO head_seq, head_hash FROM audit_anchor an WHERE an.id = 1;
    END IF;
    IF head_seq IS NULL THEN
      head_seq := 0;
      head_hash := '${GENESIS}';
    END IF;
    FOR i IN 1 .. coalesce(array_length(p_body, 1), 0) LOOP
      prevs := prevs || head_hash;
      head_seq := head_seq + 1;
      head_hash := encode(sha256(convert_to(head_hash || E'\\n' || head_seq::text || E'\\n' || p_body[i], 'UTF8')), 'hex');
      seqs := seqs || head_seq;
      hashes := hashes || head_hash;
    END LOOP;
    INSERT INTO audit (seq, time, agent, target, outcome, prev_hash, hash, body)
      SELECT * FROM unnest(seqs, p_time, p_agent, p_target, p_outcome, prevs, hashes, p_body);
    RETURN QUERY SELECT * FROM unnest(seqs, prevs, hashes);
  END
  $fn$`;

/** BIGINT comes back from pg as a string (it may exceed 2^53); sequence numbers never do. */
interface SeqRow {
  seq: string;
  hash: string;
}

interface RecordRow extends SeqRow {
  prev_hash: string;
  body: string;
}

interface ColumnRow extends RecordRow {
  time: string;
  agent: string;
  target: string;
  outcome: string;
}

/** A sluice target glob as a LIKE pattern: `*` and `?` are the wildcards; `%`, `_` and `\` are themselves. */
export function likePattern(glob: string): string {
  return [...columnText(glob)].map((c) => (c === '*' ? '%' : c === '?' ? '_' : c === '%' || c === '_' || c === '\\' ? `\\${c}` : c)).join('');
}

/** Where a URL points, for messages: host, port and database — never the user or password. */
function location(url: string): string {
  try {
    const u = new URL(url);
    return `${decodeURIComponent(u.hostname) || 'localhost'}:${u.port || '5432'}${u.pathname}`;
  } catch {
    return '(audit.url is not a valid URL)';
  }
}

const reasonOf = (err: unknown) => (err instanceof Error ? err.message || (err as NodeJS.ErrnoException).code || err.name : String(err));

const anchorOf = (row: SeqRow | undefined): Anchor | undefined => (row ? { seq: Number(row.seq), hash: row.hash } : undefined);

/**
 * The audit store in Postgres, for several gateway replicas sharing one log. There is one chain per
 * database: every append takes a transaction-scoped advisory lock, reads the head and inserts its whole batch
 * in one statement, so writers queue behind each other and each extends the chain from its true head — it
 * never forks (and the primary key on `seq` would refuse a fork if it were tried). The lock is released by
 * commit or rollback, and by the server when a connection dies, so a crashed replica cannot hold it.
 * Every call rejects instead of hanging when the server is away: connecting and each statement have timeouts.
 */
export class PostgresAuditStore implements AuditStore {
  private readonly pool: pg.Pool;
  private closed = false;

  constructor(url: string, options: PostgresAuditOptions = {}) {
    const statementTimeout = options.statementTimeoutMs ?? 10_000;
    this.pool = new pg.Pool({
      connectionString: url,
      max: options.maxConnections ?? 4,
      connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
      statement_timeout: statementTimeout,
      // The server's own timeout reports first; this one is for a network that stopped answering.
      query_timeout: statementTimeout + 2_000,
      // A replica stalled mid-append would hold the chain lock: the server ends such a session.
      idle_in_transaction_session_timeout: statementTimeout,
      application_name: 'sluice-audit',
    });
    // An idle connection the server dropped (a restart, a failover) is reported here; the pool has already
    // discarded it and the next call connects anew — nothing to do but not crash.
    this.pool.on('error', () => undefined);
    // A connection lost while checked out is reported as an 'error' event on it as well as by the failing
    // query — and the server's "shutting down" can arrive in the same read as "ready", before any caller
    // could listen. Unheard, that event would crash the process; the query's rejection is what callers see.
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** Creates the tables when missing. Under a lock: concurrent CREATE TABLE IF NOT EXISTS can still collide. */
  async createSchema(): Promise<void> {
    await this.transaction(async (c) => {
      await c.query(`SELECT pg_advisory_xact_lock(${SCHEMA_LOCK})`);
      // The chain hashes bodies as UTF-8 inside the database (see APPEND_FUNCTION): only a UTF-8 database
      // holds every body as it was made.
      const { rows } = await c.query<{ server_encoding: string }>('SHOW server_encoding');
      if (rows[0]?.server_encoding !== 'UTF8') throw new Error(`the database's encoding is ${rows[0]?.server_encoding}; sluice needs UTF8 (CREATE DATABASE … ENCODING 'UTF8')`);
      await c.query(SCHEMA);
      await c.query(APPEND_FUNCTION);
    });
  }

  async append(records: UnsealedRecord[]): Promise<AuditRecord[]> {
    if (records.length === 0) return [];
    // Bodies are made before the lock is taken: the lock is held only for reading the head, hashing and inserting.
    const bodies = records.map(bodyOf);
    const columns = records.map(columnsOf);
    const { rows } = await this.pool.query<RecordRow>('SELECT seq, prev_hash, hash FROM sluice_audit_append_v1($1, $2, $3, $4, $5)', [
      columns.map((c) => c.time),
      columns.map((c) => c.agent),
      columns.map((c) => c.target),
      columns.map((c) => c.outcome),
      bodies,
    ]);
    if (rows.length !== records.length) throw new Error(`the audit database stored ${rows.length} of ${records.length} records`);
    return records.map((r, i) => ({ ...r, seq: Number(rows[i].seq), prevHash: rows[i].prev_hash, hash: rows[i].hash }));
  }

  async query(q: AuditQuery): Promise<AuditRecord[]> {
    const where: string[] = [];
    const args: (string | number)[] = [];
    const add = (sql: (param: string) => string, value: string | number) => {
      args.push(typeof value === 'string' ? columnText(value) : value);
      where.push(sql(`$${args.length}`));
    };
    if (q.agent) add((p) => `agent = ${p}`, q.agent);
    // E'\\' is one backslash whatever standard_conforming_strings says.
    if (q.target) add((p) => `target LIKE ${p} COLLATE "C" ESCAPE E'\\\\'`, likePattern(q.target));
    if (q.outcome) add((p) => `outcome = ${p}`, q.outcome);
    if (q.since) add((p) => `time >= ${p}`, q.since);
    if (q.until) add((p) => `time <= ${p}`, q.until);
    if (q.afterSeq !== undefined) add((p) => `seq > ${p}`, q.afterSeq);
    if (q.beforeSeq !== undefined) add((p) => `seq < ${p}`, q.beforeSeq);
    args.push(q.limit ?? 1000);
    const sql = `SELECT seq, prev_hash, hash, body FROM audit ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq ${q.newestFirst ? 'DESC' : 'ASC'} LIMIT $${args.length}`;
    const { rows } = await this.pool.query<RecordRow>(sql, args);
    return rows.map((row) => recordFromStored({ seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash, body: row.body }));
  }

  async *iterate(afterSeq?: number): AsyncIterable<VerifiableRecord> {
    let after = afterSeq ?? 0;
    for (;;) {
      const { rows } = await this.pool.query<ColumnRow>('SELECT seq, prev_hash, hash, body, time, agent, target, outcome FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2', [after, PAGE]);
      for (const row of rows) {
        const c = columnsMatch(row.body, row);
        yield { seq: Number(row.seq), prevHash: row.prev_hash, hash: row.hash, body: row.body, kind: c.kind, target: c.target, columnsMatch: c.match };
      }
      if (rows.length < PAGE) return;
      after = Number(rows[rows.length - 1].seq);
    }
  }

  async anchor(): Promise<Anchor> {
    return this.anchorOn(this.pool);
  }

  async head(): Promise<Anchor> {
    return this.headOn(this.pool);
  }

  private async anchorOn(db: pg.Pool | pg.PoolClient): Promise<Anchor> {
    const { rows } = await db.query<SeqRow>('SELECT seq, hash FROM audit_anchor WHERE id = 1');
    return anchorOf(rows[0]) ?? { seq: 0, hash: GENESIS };
  }

  private async headOn(db: pg.Pool | pg.PoolClient): Promise<Anchor> {
    const { rows } = await db.query<SeqRow>('SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1');
    return anchorOf(rows[0]) ?? (await this.anchorOn(db));
  }

  async prune(beforeSeq: number): Promise<number> {
    return this.transaction(async (c) => {
      // The chain lock: an append must not read the head while the rows and the anchor are changing under it.
      await c.query(`SELECT pg_advisory_xact_lock(${CHAIN_LOCK})`);
      const last = anchorOf((await c.query<SeqRow>('SELECT seq, hash FROM audit WHERE seq < $1 ORDER BY seq DESC LIMIT 1', [beforeSeq])).rows[0]);
      if (!last) return 0;
      const removed = await c.query('DELETE FROM audit WHERE seq <= $1', [last.seq]);
      await c.query('INSERT INTO audit_anchor (id, seq, hash) VALUES (1, $1, $2) ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash', [last.seq, last.hash]);
      return removed.rowCount ?? 0;
    });
  }

  async addSignature(s: Signature): Promise<void> {
    await this.pool.query(
      'INSERT INTO audit_signatures (seq, hash, signature, time) VALUES ($1, $2, $3, $4) ON CONFLICT (seq) DO UPDATE SET hash = excluded.hash, signature = excluded.signature, time = excluded.time',
      [s.seq, s.hash, s.signature, s.time],
    );
  }

  async signatures(): Promise<Signature[]> {
    const { rows } = await this.pool.query<SeqRow & { signature: string; time: string }>('SELECT seq, hash, signature, time FROM audit_signatures ORDER BY seq');
    return rows.map((r) => ({ seq: Number(r.seq), hash: r.hash, signature: r.signature, time: r.time }));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.pool.end();
  }

  /**
   * Runs `work` in a transaction on one connection. On any failure the connection is dropped, not rolled
   * back and reused: after a timeout or a lost reply its state is unknown, and a ROLLBACK sent into a network
   * that stopped answering would only wait. Closing it makes the server roll back (and free the lock).
   */
  private async transaction<T>(work: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let failed = true;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      failed = false;
      return result;
    } finally {
      client.release(failed);
    }
  }
}

/**
 * Connects to the audit database at `url` and creates its tables when missing. Rejects with a message naming
 * the server (never the password) when it cannot be reached or refuses the login.
 */
export async function openPostgresAuditStore(url: string, options: PostgresAuditOptions = {}): Promise<PostgresAuditStore> {
  const store = new PostgresAuditStore(url, options);
  try {
    await store.createSchema();
  } catch (err) {
    await store.close().catch(() => undefined);
    throw new Error(`cannot open the audit database at ${location(url)}: ${reasonOf(err)}`);
  }
  return store;
}
