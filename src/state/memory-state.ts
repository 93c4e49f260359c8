import { randomBytes } from 'node:crypto';
import { BOTTOM, join, sameLabel, type Label } from '../ifc/label.js';
import type {
  DefinitionPin,
  PinStore,
  ApprovalStore,
  Bus,
  ApprovalVerdict,
  BucketTake,
  Grant,
  LabelHolder,
  LabelStore,
  PendingApproval,
  RateLimitStore,
  RecordStore,
  StateStores,
  SwitchName,
  SwitchStore,
  TakeResult,
} from './ports.js';
import { pinId } from './ports.js';

/** Deep copy of plain data: nothing handed to a store or back out of it is shared by reference. */
export const copy = <T>(value: T): T => structuredClone(value);

export class MemoryLabels implements LabelStore {
  private readonly sessions = new Map<string, Label>();
  private readonly marks = new Map<string, Label>();

  async of(holder: LabelHolder): Promise<Label> {
    return { ...this.now(holder) };
  }

  private now(holder: LabelHolder): Label {
    const mark = this.marks.get(holder.agent) ?? BOTTOM;
    if (holder.stateless) return mark;
    let label = this.sessions.get(holder.id);
    if (!label) {
      label = mark;
      this.sessions.set(holder.id, label);
    }
    return holder.isolated ? label : join(label, mark);
  }

  async raise(holder: LabelHolder, seen: Label): Promise<{ before: Label; after: Label }> {
    const before = this.now(holder);
    const after = join(before, seen);
    if (!holder.stateless && !sameLabel(before, after)) this.sessions.set(holder.id, after);
    const mark = this.marks.get(holder.agent) ?? BOTTOM;
    const raised = join(mark, after);
    if (!sameLabel(mark, raised)) this.marks.set(holder.agent, raised);
    return { before: { ...before }, after: { ...after } };
  }

  async forget(sessionId: string): Promise<void> {
    this.sessions.delete(sessionId);
  }

  async reset(target: { sessionId?: string; agent?: string }, sessionsOfAgent: readonly string[]): Promise<void> {
    if (target.sessionId) this.sessions.set(target.sessionId, BOTTOM);
    if (target.agent) {
      this.marks.delete(target.agent);
      for (const id of sessionsOfAgent) this.sessions.set(id, BOTTOM);
    }
  }

  async identities(): Promise<[string, Label][]> {
    return [...this.marks].map(([agent, label]) => [agent, { ...label }]);
  }
}

/** Token buckets refilled lazily on use, so an idle key costs nothing. */
export class MemoryRateLimits implements RateLimitStore {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly clock: () => number = Date.now) {}

  async take(takes: readonly BucketTake[]): Promise<TakeResult> {
    const now = this.clock();
    const levels = takes.map(({ key, bucket }) => {
      const state = this.buckets.get(key) ?? { tokens: bucket.burst, at: now };
      return Math.min(bucket.burst, state.tokens + ((now - state.at) / 1000) * bucket.perSecond);
    });
    const empty = levels.findIndex((level) => level < 1);
    // Checked all before taking any: a call refused by its per-tool bucket costs nothing from the overall one.
    takes.forEach(({ key }, i) => this.buckets.set(key, { tokens: empty === -1 ? levels[i] - 1 : levels[i], at: now }));
    if (empty === -1) return { ok: true };
    const { bucket } = takes[empty];
    return { ok: false, index: empty, retryAfterMs: Math.ceil(((1 - levels[empty]) / bucket.perSecond) * 1000) };
  }
}

export class MemorySwitches implements SwitchStore {
  private readonly values = new Map<SwitchName, boolean>();
  private readonly changes = new Listeners<[SwitchName, boolean]>();

  async get(name: SwitchName): Promise<boolean> {
    return this.values.get(name) ?? false;
  }

  async set(name: SwitchName, on: boolean): Promise<void> {
    this.values.set(name, on);
    this.changes.tell(name, on);
  }

  watch(listener: (name: SwitchName, on: boolean) => void): () => void {
    return this.changes.watch(listener);
  }
}

/** Wakes whoever waits for an approval id, in this process. */
export class Waiters {
  private readonly waiting = new Map<string, ((v: ApprovalVerdict) => void)[]>();

  wait(id: string): Promise<ApprovalVerdict> {
    return new Promise((resolve) => {
      const list = this.waiting.get(id) ?? [];
      list.push(resolve);
      this.waiting.set(id, list);
    });
  }

  wake(id: string, verdict: ApprovalVerdict): void {
    const list = this.waiting.get(id);
    this.waiting.delete(id);
    for (const resolve of list ?? []) resolve(copy(verdict));
  }
}

/** Whoever watches a store for changes, within this process: `watch` returns the way to stop. */
export class Listeners<A extends unknown[]> {
  private readonly listeners = new Set<(...args: A) => void>();

  watch(listener: (...args: A) => void): () => void {
    // A wrapper of its own, so one listener watching twice is told twice and stops once per watch.
    const one = (...args: A) => listener(...args);
    this.listeners.add(one);
    return () => void this.listeners.delete(one);
  }

  tell(...args: A): void {
    for (const listener of [...this.listeners]) listener(...args);
  }
}

/** A bus with no other replica on it: the single-process stores'. */
export class LocalBus implements Bus {
  readonly replicaId = randomBytes(8).toString('hex');
  readonly shared = false;

  async publish(): Promise<void> {}

  subscribe(): () => void {
    return () => undefined;
  }
}

export class MemoryApprovals implements ApprovalStore {
  private readonly pending = new Map<string, PendingApproval>();
  private readonly settled = new Map<string, ApprovalVerdict>();
  private grantList: Grant[] = [];
  private readonly waiters = new Waiters();
  private readonly changes = new Listeners<[]>();

  async add(p: PendingApproval): Promise<void> {
    this.pending.set(p.id, copy(p));
    this.changes.tell();
  }

  watch(listener: () => void): () => void {
    return this.changes.watch(listener);
  }

  async list(): Promise<PendingApproval[]> {
    return [...this.pending.values()].map(copy);
  }

  async settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined> {
    const p = this.pending.get(id);
    if (!p) return undefined;
    this.pending.delete(id);
    this.settled.set(id, copy(verdict));
    // Settled ids are remembered only briefly: long enough for a waiter that asks right after.
    setTimeout(() => this.settled.delete(id), 60_000).unref();
    this.waiters.wake(id, verdict);
    this.changes.tell();
    return p;
  }

  wait(id: string): Promise<ApprovalVerdict> {
    const done = this.settled.get(id);
    return done ? Promise.resolve(copy(done)) : this.waiters.wait(id);
  }

  async addGrant(grant: Grant): Promise<void> {
    this.grantList.push(copy(grant));
  }

  async grants(agent: string, tool: string): Promise<Grant[]> {
    const now = Date.now();
    this.grantList = this.grantList.filter((g) => g.expiresAt === undefined || g.expiresAt > now);
    return this.grantList.filter((g) => g.agent === agent && g.tool === tool).map(copy);
  }

  async endSession(session: string): Promise<PendingApproval[]> {
    this.grantList = this.grantList.filter((g) => g.session !== session);
    return [...this.pending.values()].filter((p) => p.session === session).map(copy);
  }
}

export class MemoryRecords<T> implements RecordStore<T> {
  private readonly records = new Map<string, { value: T; until: number }>();

  async get(key: string): Promise<T | undefined> {
    const r = this.records.get(key);
    if (!r) return undefined;
    if (r.until <= Date.now()) {
      this.records.delete(key);
      return undefined;
    }
    return copy(r.value);
  }

  async put(key: string, value: T, ttlMs: number): Promise<void> {
    if (this.records.size > 10_000) this.sweep();
    this.records.set(key, { value: copy(value), until: Date.now() + ttlMs });
  }

  async touch(key: string, ttlMs: number): Promise<void> {
    const r = this.records.get(key);
    if (r && r.until > Date.now()) r.until = Date.now() + ttlMs;
  }

  async delete(key: string): Promise<void> {
    this.records.delete(key);
  }

  private sweep(): void {
    const now = Date.now();
    for (const [k, r] of this.records) if (r.until <= now) this.records.delete(k);
  }
}

/** Pins in a map; copies go in and out, so a caller never changes what is stored. */
export class MemoryPins implements PinStore {
  private readonly pins = new Map<string, DefinitionPin>();

  async list(server?: string): Promise<DefinitionPin[]> {
    return [...this.pins.values()].filter((p) => server === undefined || p.server === server).map(copy);
  }

  async get(server: string, kind: DefinitionPin['kind'], name: string): Promise<DefinitionPin | undefined> {
    const pin = this.pins.get(pinId({ server, kind, name }));
    return pin && copy(pin);
  }

  async put(pins: readonly DefinitionPin[]): Promise<void> {
    for (const p of pins) this.pins.set(pinId(p), copy(p));
  }
}

/** Every port in memory: for tests and library use. Nothing survives the process. */
export function memoryState(sealKey: Buffer = randomBytes(32)): StateStores {
  return {
    labels: new MemoryLabels(),
    limits: new MemoryRateLimits(),
    switches: new MemorySwitches(),
    approvals: new MemoryApprovals(),
    sessions: new MemoryRecords(),
    consoleLogins: new MemoryRecords(),
    sseStreams: new MemoryRecords(),
    sealKey,
    bus: new LocalBus(),
    pins: new MemoryPins(),
    close: async () => undefined,
  };
}
