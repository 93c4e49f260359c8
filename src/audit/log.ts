import { lifecycle } from '../lifecycle.js';
import { EventEmitter } from 'node:events';
import { setTimeout as sleep } from 'node:timers/promises';
import type { AuditRecord, UnsealedRecord } from './chain.js';
import type { HeadSigner } from './signing.js';
import type { AuditStore } from './store.js';
import { anchorTarget } from './verify.js';

interface Waiting {
  record: UnsealedRecord;
  resolve(r: AuditRecord | undefined): void;
  reject(e: Error): void;
  deadline: number;
  /** The writer stopped waiting (its deadline passed); the record itself stays queued and still lands. */
  gaveUp: boolean;
}

export interface AuditLogOptions {
  signer?: HeadSigner;
  /** How often the chain head is signed while writes keep coming (and once more on close). */
  signIntervalMs?: number;
  /** Signs the head once writes have been quiet this long, so a crash leaves at most a short unsigned tail. */
  signQuietMs?: number;
  /** Records older than this are pruned (an anchor record keeps the rest verifiable). */
  retentionMs?: number;
  /** How long a writer waits for its record to be committed before it gives up (the record stays queued). */
  commitTimeoutMs?: number;
  /** Most records waiting; past it, records marked droppable are counted instead of queued. */
  maxQueue?: number;
  /** Most records per transaction. */
  maxBatch?: number;
  /**
   * Most batches handed to the store at once. Two: while a networked store (Postgres) commits one batch, the
   * next is already on its way and takes the lock the moment the first lets go. Records of concurrent calls
   * may then land in either order; a record written after another was committed always comes after it.
   */
  maxInFlight?: number;
  /** Told when the store refuses a batch (first failure of a streak) and when it takes records again. */
  onStoreTrouble?: (event: { failing: boolean; error?: string; waiting: number }) => void;
}

export interface WriteOptions {
  /**
   * A refusal while the log is backed up may be counted instead of queued, so a flood of refused calls
   * cannot grow the queue without bound. Records of calls that executed are never droppable.
   */
  droppable?: boolean;
}

/** Records enough for a batch of their own, sent without waiting for the end of the turn. */
const EAGER_BATCH = 64;

/**
 * The hash-chained log with group commit, written off the request path: records queue, one writer commits
 * them in batches, and each writer's promise resolves once its record is committed — so a caller that awaits
 * it knows the record is durable before it lets a result go out. A store that fails (a lock held by another
 * process, a database down) delays records, never other traffic: the batch goes back to the front of the
 * queue and is tried again with backoff, in order, until it lands.
 */
export class AuditLog extends EventEmitter<{ appended: [AuditRecord[]] }> {
  /** Records not yet handed to the store, oldest first. */
  private queue: Waiting[] = [];
  private scheduled = false;
  /** Batches handed to the store and not yet answered, and the records in them. */
  private inFlight = 0;
  private inFlightRecords = 0;
  private batchNo = 0;
  /** Batches the store refused; while any is waiting to be retried, nothing new is sent (the order holds). */
  private failed: { no: number; batch: Waiting[] }[] = [];
  /** Waiting out the backoff after a refusal: nothing is sent until it has passed, however many records arrive. */
  private backingOff = false;
  private backoff = 1;
  private closed = false;
  private failing = false;
  private uncounted = 0;
  private readonly timers: NodeJS.Timeout[] = [];
  private lastSigned = -1;
  private lastWriteAt = 0;
  private quietTimer?: NodeJS.Timeout;
  private readonly commitTimeoutMs: number;
  private readonly maxQueue: number;
  private readonly maxBatch: number;
  private readonly maxInFlight: number;

  constructor(
    readonly store: AuditStore,
    private readonly options: AuditLogOptions = {},
  ) {
    super();
    this.commitTimeoutMs = options.commitTimeoutMs ?? 30_000;
    this.maxQueue = options.maxQueue ?? 100_000;
    this.maxBatch = options.maxBatch ?? 2_000;
    this.maxInFlight = options.maxInFlight ?? 2;
    if (options.signer) {
      const t = setInterval(() => void this.signHead().catch(() => undefined), options.signIntervalMs ?? 60_000);
      t.unref();
      this.timers.push(t);
    }
    if (options.retentionMs) {
      const t = setInterval(() => void this.pruneOlderThan(options.retentionMs!).catch(() => undefined), 3_600_000);
      t.unref();
      this.timers.push(t);
    }
  }

  /** Records waiting to be committed. */
  get waiting(): number {
    return this.queue.length + this.inFlightRecords;
  }

  /** The queue is full: new calls should be refused before they run. */
  get backedUp(): boolean {
    return this.waiting >= this.maxQueue;
  }

  /**
   * Queues a record; resolves with it sealed once committed. Rejects when the log is closed, or when the
   * record was not committed within the commit timeout — it stays queued and lands later all the same.
   * A droppable record while the log is backed up resolves at once with undefined (it is counted instead).
   */
  write(record: UnsealedRecord, options: WriteOptions = {}): Promise<AuditRecord | undefined> {
    if (this.closed) return Promise.reject(new Error('the audit log is closed'));
    if (options.droppable && this.backedUp) {
      this.uncounted++;
      return Promise.resolve(undefined);
    }
    return new Promise((resolve, reject) => {
      this.queue.push({ record, resolve, reject, deadline: performance.now() + this.commitTimeoutMs, gaveUp: false });
      // A full batch goes at once when the store has room: it commits while the rest of this turn runs.
      if (this.queue.length >= EAGER_BATCH) this.pump();
      if (!this.scheduled) {
        this.scheduled = true;
        // Everything written in this turn of the event loop goes into one transaction.
        setImmediate(() => {
          this.scheduled = false;
          this.pump();
        });
      }
    });
  }

  /** Hands queued records to the store, a batch at a time, up to `maxInFlight` batches at once. */
  private pump(): void {
    while (!this.backingOff && this.failed.length === 0 && this.inFlight < this.maxInFlight && this.queue.length > 0) {
      this.send(this.queue.splice(0, this.maxBatch));
    }
  }

  private send(batch: Waiting[]): void {
    const no = ++this.batchNo;
    this.inFlight++;
    this.inFlightRecords += batch.length;
    const started = lifecycle.auditCommit.active ? performance.now() : 0;
    const landed = (ok: boolean) => {
      this.inFlight--;
      this.inFlightRecords -= batch.length;
      if (started) lifecycle.auditCommit.publish({ records: batch.length, durationS: (performance.now() - started) / 1000, ok });
    };
    let appended: Promise<AuditRecord[]>;
    try {
      appended = this.store.append(batch.map((w) => w.record));
    } catch (err) {
      // A store that throws instead of rejecting is a refusal all the same.
      appended = Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
    appended.then(
      (sealed) => {
        landed(true);
        this.backoff = 1;
        this.lastWriteAt = performance.now();
        if (this.failed.length === 0) this.trouble(false);
        batch.forEach((w, i) => (w.gaveUp ? undefined : w.resolve(sealed[i])));
        this.emit('appended', sealed);
        this.noteUncounted();
        this.next();
      },
      (err: Error) => {
        landed(false);
        this.failed.push({ no, batch });
        this.trouble(true, err.message);
        this.next();
      },
    );
  }

  /** After a batch is answered: retry what failed once nothing is in flight, else send more, else sign when quiet. */
  private next(): void {
    if (this.failed.length > 0) {
      if (this.inFlight === 0) this.retryFailed();
      return;
    }
    this.pump();
    if (this.inFlight === 0 && this.queue.length === 0) this.signWhenQuiet();
  }

  /**
   * A refused batch goes back to the front of the queue — several in the order they were first sent — and is
   * tried again with backoff, in order, until it lands; writers whose deadline passed meanwhile are told.
   */
  private retryFailed(): void {
    const batches = this.failed.sort((a, b) => a.no - b.no).flatMap((f) => f.batch);
    this.failed = [];
    this.queue.unshift(...batches);
    this.expireWaiters();
    const wait = this.backoff;
    this.backoff = Math.min(50, this.backoff * 2);
    if (this.closed && wait >= 50) return;
    this.backingOff = true;
    // Node's timers count from the event loop's cached clock, so one can fire up to a turn early; the backoff
    // is a promise to a struggling store, so it is measured on the real clock and re-armed for what is left.
    const until = performance.now() + wait;
    const resume = () => {
      const left = until - performance.now();
      if (left > 0) {
        setTimeout(resume, left);
        return;
      }
      this.backingOff = false;
      this.pump();
    };
    setTimeout(resume, wait);
  }

  /** One timer at a time: it waits until no record has landed for `signQuietMs`, then signs the head. */
  private signWhenQuiet(): void {
    if (!this.options.signer || this.quietTimer || this.closed) return;
    const quiet = this.options.signQuietMs ?? 1000;
    const check = () => {
      const since = performance.now() - this.lastWriteAt;
      if (since < quiet) {
        this.quietTimer = setTimeout(check, quiet - since);
        this.quietTimer.unref();
        return;
      }
      this.quietTimer = undefined;
      void this.signHead().catch(() => undefined);
    };
    this.quietTimer = setTimeout(check, quiet);
    this.quietTimer.unref();
  }

  /**
   * At start: when records follow the last signed head — a process died before it could sign them, or someone
   * appended them while nothing ran — says so in the chain itself (one record naming them) before signing the
   * head, since any signature from here on covers them too. Returns how many there were.
   */
  async start(): Promise<number> {
    if (!this.options.signer) return 0;
    const [head, signatures, anchor] = await Promise.all([this.store.head(), this.store.signatures(), this.store.anchor()]);
    const lastSigned = signatures.reduce((m, s) => Math.max(m, s.seq), anchor.seq);
    const tail = head.seq - lastSigned;
    if (tail > 0) {
      await this.write({
        time: new Date().toISOString(),
        kind: 'operator',
        agent: 'sluice',
        session: '-',
        transport: '-',
        method: 'audit/start',
        target: `unsigned-tail:${lastSigned + 1}-${head.seq}`,
        outcome: 'allow',
        reason: `at start, ${tail} record${tail === 1 ? '' : 's'} (${lastSigned + 1} to ${head.seq}) followed the last signed head; signed from here on`,
      });
    }
    await this.signHead();
    return tail;
  }

  /** Writers whose deadline passed are told so; their records stay in the queue. */
  private expireWaiters(): void {
    const now = performance.now();
    for (const w of this.queue) {
      if (w.gaveUp || w.deadline > now) continue;
      w.gaveUp = true;
      w.reject(new Error(`the audit record was not committed within ${Math.round(this.commitTimeoutMs / 1000)} s (it is still queued)`));
    }
  }

  private trouble(failing: boolean, error?: string): void {
    if (failing === this.failing) return;
    this.failing = failing;
    this.options.onStoreTrouble?.({ failing, error, waiting: this.queue.length });
  }

  /** Once the backlog has cleared, one record says how many refusals were counted instead of recorded. */
  private noteUncounted(): void {
    if (this.uncounted === 0 || this.queue.length > this.maxQueue / 2) return;
    const n = this.uncounted;
    this.uncounted = 0;
    void this.write({
      time: new Date().toISOString(),
      kind: 'decision',
      agent: 'sluice',
      session: '-',
      transport: '-',
      method: 'audit/backlog',
      target: 'refusals-counted',
      outcome: 'deny',
      reason: `${n} refusal${n === 1 ? ' was' : 's were'} counted here instead of recorded one by one, while the audit log was backed up`,
    }).catch(() => undefined);
  }

  /** Resolves when everything queued so far is committed (or the store keeps failing past `timeoutMs`). */
  async settle(timeoutMs = 10_000): Promise<void> {
    const until = performance.now() + timeoutMs;
    while (this.waiting > 0 && performance.now() < until) await sleep(5);
  }

  /** Signs the current head if it moved since the last signature. */
  async signHead(): Promise<void> {
    const signer = this.options.signer;
    if (!signer) return;
    const head = await this.store.head();
    if (head.seq === 0 || head.seq === this.lastSigned) return;
    await this.store.addSignature({ seq: head.seq, hash: head.hash, signature: signer.sign(head.seq, head.hash), time: new Date().toISOString() });
    this.lastSigned = head.seq;
  }

  /**
   * Drops records older than `ms`, after writing an anchor record that names the last one dropped: the chain
   * then starts from that point and still verifies, and the anchor itself is part of the chain.
   */
  async pruneOlderThan(ms: number): Promise<number> {
    const cutoff = new Date(Date.now() - ms).toISOString();
    const old = (await this.store.query({ until: cutoff, newestFirst: true, limit: 1 }))[0];
    if (!old) return 0;
    await this.write({ time: new Date().toISOString(), kind: 'anchor', agent: 'sluice', session: '-', transport: '-', method: 'audit/prune', target: anchorTarget(old.seq, old.hash), outcome: 'allow' });
    return this.store.prune(old.seq + 1);
  }

  /** Commits what is queued (waiting a while for a store that is failing), signs the head, closes the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    for (const t of this.timers) clearInterval(t);
    clearTimeout(this.quietTimer);
    await this.settle();
    this.closed = true;
    clearTimeout(this.quietTimer);
    await this.signHead().catch(() => undefined);
    for (const w of this.queue.splice(0)) if (!w.gaveUp) w.reject(new Error('the audit log closed before this record could be committed'));
    await this.store.close();
  }
}
