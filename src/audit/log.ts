import { EventEmitter } from 'node:events';
import type { AuditRecord, UnsealedRecord } from './chain.js';
import type { HeadSigner } from './signing.js';
import type { AuditStore } from './store.js';
import { anchorTarget } from './verify.js';

interface Waiting {
  record: UnsealedRecord;
  resolve(r: AuditRecord): void;
  reject(e: Error): void;
}

export interface AuditLogOptions {
  signer?: HeadSigner;
  /** How often the chain head is signed (and once more on close). */
  signIntervalMs?: number;
  /** Records older than this are pruned (an anchor record keeps the rest verifiable). */
  retentionMs?: number;
}

/**
 * The hash-chained log with group commit: records written in the same turn of the event loop go to the
 * store in one transaction, and each writer's promise resolves only once its record is committed — so a
 * caller that awaits it knows the record is durable before it lets a result go out.
 */
export class AuditLog extends EventEmitter<{ appended: [AuditRecord[]] }> {
  private queue: Waiting[] = [];
  private scheduled = false;
  private readonly timers: NodeJS.Timeout[] = [];
  private lastSigned = -1;

  constructor(
    readonly store: AuditStore,
    private readonly options: AuditLogOptions = {},
  ) {
    super();
    if (options.signer) {
      const t = setInterval(() => this.signHead(), options.signIntervalMs ?? 60_000);
      t.unref();
      this.timers.push(t);
    }
    if (options.retentionMs) {
      const t = setInterval(() => void this.pruneOlderThan(options.retentionMs!), 3_600_000);
      t.unref();
      this.timers.push(t);
    }
  }

  write(record: UnsealedRecord): Promise<AuditRecord> {
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Commits everything queued in one transaction. */
  flush(): void {
    this.scheduled = false;
    const batch = this.queue;
    if (batch.length === 0) return;
    this.queue = [];
    let sealed: AuditRecord[];
    try {
      sealed = this.store.append(batch.map((w) => w.record));
    } catch (err) {
      for (const w of batch) w.reject(err as Error);
      return;
    }
    batch.forEach((w, i) => w.resolve(sealed[i]));
    this.emit('appended', sealed);
  }

  /** Signs the current head if it moved since the last signature. */
  signHead(): void {
    const signer = this.options.signer;
    if (!signer) return;
    const head = this.store.head();
    if (head.seq === 0 || head.seq === this.lastSigned) return;
    this.store.addSignature({ seq: head.seq, hash: head.hash, signature: signer.sign(head.seq, head.hash), time: new Date().toISOString() });
    this.lastSigned = head.seq;
  }

  /**
   * Drops records older than `ms`, after writing an anchor record that names the last one dropped: the chain
   * then starts from that point and still verifies, and the anchor itself is part of the chain.
   */
  async pruneOlderThan(ms: number): Promise<number> {
    const cutoff = new Date(Date.now() - ms).toISOString();
    const old = this.store.query({ until: cutoff, newestFirst: true, limit: 1 })[0];
    if (!old) return 0;
    await this.write({ time: new Date().toISOString(), kind: 'anchor', agent: 'sluice', session: '-', transport: '-', method: 'audit/prune', target: anchorTarget(old.seq, old.hash), outcome: 'allow' });
    return this.store.prune(old.seq + 1);
  }

  close(): void {
    for (const t of this.timers) clearInterval(t);
    this.flush();
    this.signHead();
    this.store.close();
  }
}
