import { createHash } from 'node:crypto';
import { canonicalJson } from '../canonical-json.js';

/** The hash before the first record: a fixed value, so an empty log and a log starting anew look alike. */
export const GENESIS = '0'.repeat(64);

/** Everything one audit record holds. `hash` covers every other field (canonical JSON) and the previous hash. */
export interface AuditRecord {
  seq: number;
  time: string;
  kind: 'decision' | 'operator' | 'approval' | 'anchor' | 'definition';
  agent: string;
  session: string;
  transport: string;
  method: string;
  target: string;
  upstream?: string;
  outcome: string;
  step?: string;
  rule?: string;
  reason?: string;
  /** For refused logins: the address and token fingerprint of who knocked. */
  client?: string;
  /** Arguments after redaction, capped in size; `argumentsHash` is over the full value. */
  arguments?: string;
  argumentsHash?: string;
  result?: string;
  resultHash?: string;
  findings?: string[];
  /** Definition records: the pin before and after. */
  hashAfter?: string;
  hashBefore?: string;
  labelBefore?: string;
  labelAfter?: string;
  durationMs?: number;
  traceId?: string;
  prevHash: string;
  hash: string;
}

export type UnsealedRecord = Omit<AuditRecord, 'seq' | 'prevHash' | 'hash'>;

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** The record's own fields (all but its place in the chain), as canonical JSON: what is stored and hashed. */
export function bodyOf(record: UnsealedRecord): string {
  return canonicalJson(record);
}

/**
 * A record's hash: over the previous record's hash, its sequence number and every other field (the canonical
 * JSON body). Change any of them — or the order — and this hash, and every one after it, no longer fits.
 */
export function hashRecord(prevHash: string, seq: number, body: string): string {
  return sha256(`${prevHash}\n${seq}\n${body}`);
}

export function seal(record: UnsealedRecord, seq: number, prevHash: string, body = bodyOf(record)): AuditRecord {
  return { ...record, seq, prevHash, hash: hashRecord(prevHash, seq, body) };
}

/** A record as storage keeps it: its place in the chain, its hash, and its body. */
export interface StoredRecord {
  seq: number;
  prevHash: string;
  hash: string;
  body: string;
}

export function recordFromStored(row: StoredRecord): AuditRecord {
  return { ...(JSON.parse(row.body) as UnsealedRecord), seq: row.seq, prevHash: row.prevHash, hash: row.hash };
}

export type Verification = { ok: true; checked: number; head?: { seq: number; hash: string } } | { ok: false; checked: number; brokenAt: number; reason: string };

/**
 * Walks records in order and checks each one: its hash is right for its content, it names the hash before
 * it, and the sequence has no gap. Any edit, deletion, insertion or reordering breaks one of these.
 */
export async function verifyChain(records: AsyncIterable<StoredRecord> | Iterable<StoredRecord>, start: { seq: number; hash: string } = { seq: 0, hash: GENESIS }): Promise<Verification> {
  let prev = start.hash;
  let expected = start.seq + 1;
  let checked = 0;
  let last: StoredRecord | undefined;
  for await (const r of records) {
    if (r.seq !== expected) return { ok: false, checked, brokenAt: r.seq, reason: `expected record ${expected}, found ${r.seq} (a record was deleted, inserted or moved)` };
    if (r.prevHash !== prev) return { ok: false, checked, brokenAt: r.seq, reason: 'it does not follow the record before it (prevHash differs)' };
    if (hashRecord(r.prevHash, r.seq, r.body) !== r.hash) return { ok: false, checked, brokenAt: r.seq, reason: 'its content does not match its hash (it was edited)' };
    prev = r.hash;
    expected++;
    checked++;
    last = r;
  }
  return { ok: true, checked, head: last ? { seq: last.seq, hash: last.hash } : undefined };
}
