import { verifyChain, type StoredRecord } from './chain.js';
import { verifySignature } from './signing.js';
import type { AuditStore } from './store.js';

export type AuditVerification =
  | {
      ok: true;
      checked: number;
      signaturesChecked: number;
      anchorSeq: number;
      /** The last record verified. */
      head: { seq: number; hash: string };
      /**
       * With a key: how many records come after the last signed head. Nothing vouches for them but the chain,
       * which anyone with write access can extend — a crash leaves a second's worth; more means look closer.
       */
      unsignedTail?: number;
      /** With a key: the last signed head's record (0: none). */
      lastSignedSeq?: number;
    }
  | { ok: false; checked: number; brokenAt: number; reason: string };

/** The target an anchor record names: proof, inside the chain, of where pruning moved its start. */
export const anchorTarget = (seq: number, hash: string) => `pruned-through:${seq}:${hash}`;

/**
 * Verifies the whole log: the chain from its anchor (after pruning, the anchor must itself be attested by an
 * anchor record in the chain), and with a public key, every signed head that is still in the log.
 */
export async function verifyStore(store: AuditStore, publicKeyPem?: string, resume?: Checkpoint): Promise<AuditVerification> {
  const anchor = await store.anchor();
  // Resuming checks only what came after a point an earlier full pass verified (when the anchor still fits).
  if (resume && resume.seq >= anchor.seq && publicKeyPem === undefined) return verifyFrom(store, resume);
  const hashes = new Map<number, string>();
  let attested = anchor.seq === 0;
  let editedColumns: number | undefined;
  const seen = async function* (): AsyncGenerator<StoredRecord> {
    for await (const r of store.iterate()) {
      if (!r.columnsMatch && editedColumns === undefined) editedColumns = r.seq;
      hashes.set(r.seq, r.hash);
      if (r.kind === 'anchor' && r.target === anchorTarget(anchor.seq, anchor.hash)) attested = true;
      yield r;
    }
  };
  const chain = await verifyChain(seen(), anchor);
  if (!chain.ok) return chain;
  if (editedColumns !== undefined) {
    return { ok: false, checked: chain.checked, brokenAt: editedColumns, reason: 'its searchable columns differ from its hashed content (they were edited)' };
  }
  if (!attested) {
    return { ok: false, checked: chain.checked, brokenAt: anchor.seq + 1, reason: `the log starts after record ${anchor.seq}, but no anchor record in the chain says it was pruned there` };
  }
  let signaturesChecked = 0;
  if (publicKeyPem !== undefined) {
    const signatures = (await store.signatures()).filter((s) => s.seq > anchor.seq);
    for (const s of signatures) {
      const actual = hashes.get(s.seq);
      if (actual === undefined) return { ok: false, checked: chain.checked, brokenAt: s.seq, reason: `a signed head names record ${s.seq}, which is missing` };
      if (actual !== s.hash || !verifySignature(publicKeyPem, s.seq, s.hash, s.signature)) {
        return { ok: false, checked: chain.checked, brokenAt: s.seq, reason: 'the signed head does not match this record: the log was rewritten' };
      }
      signaturesChecked++;
    }
    const head = chain.head ?? anchor;
    const lastSignedSeq = signatures.reduce((m, s) => Math.max(m, s.seq), anchor.seq);
    return { ok: true, checked: chain.checked, signaturesChecked, anchorSeq: anchor.seq, head, unsignedTail: head.seq - lastSignedSeq, lastSignedSeq };
  }
  return { ok: true, checked: chain.checked, signaturesChecked, anchorSeq: anchor.seq, head: chain.head ?? anchor };
}

/** A point up to which the chain was verified: the record's sequence number and hash, and how many came before. */
export interface Checkpoint {
  seq: number;
  hash: string;
  checked: number;
}

async function verifyFrom(store: AuditStore, from: Checkpoint): Promise<AuditVerification> {
  let edited: number | undefined;
  const rows = async function* () {
    for await (const r of store.iterate(from.seq)) {
      if (!r.columnsMatch && edited === undefined) edited = r.seq;
      yield r;
    }
  };
  const chain = await verifyChain(rows(), from);
  if (!chain.ok) return { ...chain, checked: from.checked + chain.checked };
  if (edited !== undefined) return { ok: false, checked: from.checked + chain.checked, brokenAt: edited, reason: 'its searchable columns differ from its hashed content (they were edited)' };
  return { ok: true, checked: from.checked + chain.checked, signaturesChecked: 0, anchorSeq: (await store.anchor()).seq, head: chain.head ?? { seq: from.seq, hash: from.hash } };
}
