import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical.js';

/** The hash before the first record: a fixed value, so an empty log and a log starting anew look alike. */
export const GENESIS = '0'.repeat(64);

/** Everything one audit record holds. `hash` covers every other field (canonical JSON) and the previous hash. */
export interface AuditRecord {
  seq: number;
  time: string;
  kind: 'decision' | 'operator' | 'approval' | 'anchor';
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
  /** Arguments after redaction, capped in size; `argumentsHash` is over the full value. */
  arguments?: string;
  argumentsHash?: string;
  result?: string;
  resultHash?: string;
  findings?: string[];
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

/** The hash of a record: over all its fields but `hash`, in canonical JSON. */
export function hashRecord(record: Omit<AuditRecord, 'hash'>): string {
  return sha256(canonicalJson(record));
}

export function seal(record: UnsealedRecord, seq: number, prevHash: string): AuditRecord {
  const withChain = { ...record, seq, prevHash };
  return { ...withChain, hash: hashRecord(withChain) };
}

export type Verification = { ok: true; checked: number; head?: { seq: number; hash: string } } | { ok: false; checked: number; brokenAt: number; reason: string };

/**
 * Walks records in order and checks each one: its hash is right for its content, it names the hash before
 * it, and the sequence has no gap. Any edit, deletion, insertion or reordering breaks one of these.
 */
export function verifyChain(records: Iterable<AuditRecord>, start: { seq: number; hash: string } = { seq: 0, hash: GENESIS }): Verification {
  let prev = start.hash;
  let expected = start.seq + 1;
  let checked = 0;
  let last: AuditRecord | undefined;
  for (const r of records) {
    if (r.seq !== expected) return { ok: false, checked, brokenAt: r.seq, reason: `expected record ${expected}, found ${r.seq} (a record was deleted, inserted or moved)` };
    if (r.prevHash !== prev) return { ok: false, checked, brokenAt: r.seq, reason: 'it does not follow the record before it (prevHash differs)' };
    const { hash, ...rest } = r;
    if (hashRecord(rest) !== hash) return { ok: false, checked, brokenAt: r.seq, reason: 'its content does not match its hash (it was edited)' };
    prev = hash;
    expected++;
    checked++;
    last = r;
  }
  return { ok: true, checked, head: last ? { seq: last.seq, hash: last.hash } : undefined };
}
