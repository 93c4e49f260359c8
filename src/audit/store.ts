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

/** Checks a record's searchable columns against its hashed body (a store keeps both). */
export function columnsMatch(body: string, columns: { time: string; agent: string; target: string; outcome: string }): { kind: string; target: string; match: boolean } {
  const b = JSON.parse(body) as { kind?: string; time?: string; agent?: string; target?: string; outcome?: string };
  return { kind: b.kind ?? '', target: b.target ?? '', match: b.time === columns.time && b.agent === columns.agent && b.target === columns.target && b.outcome === columns.outcome };
}
