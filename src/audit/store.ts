import type { AuditRecord, StoredRecord, UnsealedRecord } from './chain.js';

export interface AuditQuery {
  agent?: string;
  /** A target glob with sluice's own meaning (see target-glob.ts), whatever the store. */
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

/** A record as verification needs it: what is hashed, plus whether the searchable columns agree with it. */
export interface VerifiableRecord extends StoredRecord {
  kind: string;
  target: string;
  columnsMatch: boolean;
}

/**
 * The audit log's storage port. Every method is async, so the embedded SQLite store and a networked one
 * (Postgres, for clusters) fit behind it alike; no object crosses it by reference. A store that cannot take a
 * write right now (a lock held elsewhere, a server down) rejects; the log above keeps the records queued and
 * tries again, so nothing that executed is lost.
 */
export interface AuditStore {
  /** Seals and appends records in one transaction, after whatever any other writer appended last. */
  append(records: UnsealedRecord[]): Promise<AuditRecord[]>;
  query(q: AuditQuery): Promise<AuditRecord[]>;
  /** Every record in order after `afterSeq` (default: from the anchor), streamed in pages, never loaded at once. */
  iterate(afterSeq?: number): AsyncIterable<VerifiableRecord>;
  anchor(): Promise<Anchor>;
  head(): Promise<Anchor>;
  /** Deletes records before `seq` and moves the anchor to the last one deleted. */
  prune(beforeSeq: number): Promise<number>;
  addSignature(s: Signature): Promise<void>;
  signatures(): Promise<Signature[]>;
  close(): Promise<void>;
}

/** The fields a store keeps beside the body, in columns it can search and index. */
export interface Columns {
  time: string;
  agent: string;
  target: string;
  outcome: string;
}

/**
 * What no database column keeps as it is: NUL (Postgres text refuses it) and a lone UTF-16 surrogate (written as
 * UTF-8, SQLite and Postgres alike keep U+FFFD instead). The body, JSON, escapes both and keeps them exactly.
 */
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** A field as every store's column keeps it: unstorable characters as U+FFFD; anything but a string as ''. */
export const columnText = (value: unknown): string => (typeof value === 'string' ? value.replace(UNSTORABLE, '\uFFFD') : '');

/**
 * A record's columns: a pure function of its fields, so of its hashed body — canonical JSON keeps every string
 * exactly (lone surrogates and NUL as escapes) — and what verification computes from the body again. Whatever
 * a client puts in a name, the columns it makes match; a column that does not was edited. A missing or
 * non-string field is '' (never a failed append, which would stall the log behind it).
 */
export function columnsOf(fields: { [K in keyof Columns]?: unknown }): Columns {
  return { time: columnText(fields.time), agent: columnText(fields.agent), target: columnText(fields.target), outcome: columnText(fields.outcome) };
}

/**
 * A column fits its field when it is the field as `columnText` makes it; or the field itself, as a log written
 * before columns were made that way may hold it (SQLite kept a NUL as it is). Either is a function of the
 * body, so accepting both lets no edit through.
 */
const fits = (column: string, field: unknown) => column === columnText(field) || column === field;

/** Checks a record's searchable columns against its hashed body (a store keeps both). */
export function columnsMatch(body: string, columns: Columns): { kind: string; target: string; match: boolean } {
  const b = JSON.parse(body) as { [K in keyof Columns | 'kind']?: unknown };
  return {
    kind: typeof b.kind === 'string' ? b.kind : '',
    target: typeof b.target === 'string' ? b.target : '',
    match: fits(columns.time, b.time) && fits(columns.agent, b.agent) && fits(columns.target, b.target) && fits(columns.outcome, b.outcome),
  };
}
