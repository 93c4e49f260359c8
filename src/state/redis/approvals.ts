import { randomBytes } from 'node:crypto';
import { Listeners, Waiters } from '../memory-state.js';
import type { ApprovalStore, ApprovalVerdict, Grant, PendingApproval } from '../ports.js';
import type { Channels } from './channels.js';
import { Script, type SharedRedis } from './client.js';
import type { Keys } from './keys.js';
import { isObject, parseJson } from './parse.js';
import { SETTLE_SCRIPT } from './scripts.js';

const settleScript = new Script(SETTLE_SCRIPT);

/** A request as stored: which replica's call waits for it, so a request whose replica died can be expired. */
interface StoredRequest {
  owner: string;
  pending: PendingApproval;
}

const VERDICT_TTL_MS = 3_600_000;
/** A replica proves it is alive this often; a request whose replica stopped proving it for longer is expired. */
const HEARTBEAT_MS = 2000;
const HEARTBEAT_TTL_MS = 10_000;
/** Waiters also look for their verdict this often, in case a published one was lost. */
const WAIT_POLL_MS = 1000;

/**
 * Requests, verdicts and grants shared by every replica. A request is settled exactly once (one script);
 * whoever waits for it wakes by pub/sub, or by polling should the message be lost.
 */
export class RedisApprovals implements ApprovalStore {
  private readonly waiters = new Waiters();
  private readonly waiting = new Set<string>();
  private readonly changes = new Listeners<[]>();
  private heartbeat?: NodeJS.Timeout;
  private poll?: NodeJS.Timeout;
  private readonly unlisten: (() => void)[] = [];

  constructor(
    private readonly redis: SharedRedis,
    private readonly keys: Keys,
    private readonly channels: Channels,
    private readonly replicaId: string,
  ) {}

  async start(): Promise<void> {
    this.unlisten.push(
      this.channels.listen('approvals', (text) => {
        const settled = parseSettled(text);
        if (settled) this.wake(settled.id, settled.verdict);
        this.changes.tell();
      }),
    );
    this.unlisten.push(this.channels.listen('approvals-added', () => this.changes.tell()));
    await this.beat();
    this.heartbeat = setInterval(() => void this.beat().catch(() => undefined), HEARTBEAT_MS).unref();
    this.poll = setInterval(() => void this.lookForVerdicts().catch(() => undefined), WAIT_POLL_MS).unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.heartbeat);
    clearInterval(this.poll);
    for (const off of this.unlisten) off();
    // Whatever this replica's calls still waited for has nobody waiting any more.
    await this.redis.run((r) => r.del(this.keys.replica(this.replicaId))).catch(() => undefined);
  }

  private beat(): Promise<unknown> {
    return this.redis.run((r) => r.set(this.keys.replica(this.replicaId), '1', 'PX', HEARTBEAT_TTL_MS));
  }

  private wake(id: string, verdict: ApprovalVerdict): void {
    this.waiting.delete(id);
    this.waiters.wake(id, verdict);
  }

  async add(p: PendingApproval): Promise<void> {
    const ttl = Math.max(0, Date.parse(p.expiresAt) - Date.now()) + VERDICT_TTL_MS;
    const stored: StoredRequest = { owner: this.replicaId, pending: p };
    await this.redis.transaction((tx) =>
      tx
        .set(this.keys.approval(p.id), JSON.stringify(stored), 'PX', ttl)
        .zadd(this.keys.pending(), Date.parse(p.requestedAt) || Date.now(), p.id)
        .sadd(this.keys.sessionApprovals(p.session), p.id)
        .pexpire(this.keys.sessionApprovals(p.session), ttl)
        .publish(this.keys.channel('approvals-added'), p.id),
    );
    this.changes.tell();
  }

  async list(): Promise<PendingApproval[]> {
    const ids = await this.redis.run((r) => r.zrange(this.keys.pending(), '0', '-1'));
    const requests = await this.requests(ids);
    const live: PendingApproval[] = [];
    for (const [id, stored] of requests) {
      if (!stored) await this.redis.run((r) => r.zrem(this.keys.pending(), id)); // its key expired
      else if (!(await this.ownerAlive(stored))) await this.expireOrphan(id);
      else live.push(stored.pending);
    }
    return live;
  }

  private async requests(ids: string[]): Promise<[string, StoredRequest | undefined][]> {
    if (ids.length === 0) return [];
    const bodies = await this.redis.run((r) => r.mget(ids.map((id) => this.keys.approval(id))));
    return ids.map((id, i) => [id, parseStored(bodies[i])]);
  }

  private async ownerAlive(stored: StoredRequest): Promise<boolean> {
    return stored.owner === this.replicaId || (await this.exists(this.keys.replica(stored.owner)));
  }

  private async exists(key: string): Promise<boolean> {
    return (await this.redis.run((r) => r.exists(key))) === 1;
  }

  private expireOrphan(id: string): Promise<PendingApproval | undefined> {
    return this.settle(id, { granted: false, outcome: 'expired', by: 'sluice', reason: 'the replica that held the call stopped' });
  }

  async settle(id: string, verdict: ApprovalVerdict): Promise<PendingApproval | undefined> {
    const body = (await this.redis.script(settleScript, [this.keys.approval(id), this.keys.verdict(id), this.keys.pending()], [
      id,
      JSON.stringify(verdict),
      VERDICT_TTL_MS,
      this.keys.channel('approvals'),
    ])) as string | null;
    const stored = parseStored(body);
    if (!stored) return undefined;
    this.wake(id, verdict);
    this.changes.tell();
    return stored.pending;
  }

  async wait(id: string): Promise<ApprovalVerdict> {
    const promise = this.waiters.wait(id);
    this.waiting.add(id);
    await this.check(id);
    return promise;
  }

  /** Looks up every verdict still waited for: the safety net under pub/sub, which may drop a message. */
  private async lookForVerdicts(): Promise<void> {
    for (const id of [...this.waiting]) await this.check(id);
  }

  private async check(id: string): Promise<void> {
    const verdict = parseVerdict(await this.redis.run((r) => r.get(this.keys.verdict(id))));
    if (verdict) return this.wake(id, verdict);
    const stored = parseStored(await this.redis.run((r) => r.get(this.keys.approval(id))));
    if (stored && !(await this.ownerAlive(stored))) await this.expireOrphan(id);
  }

  async addGrant(g: Grant): Promise<void> {
    const key = this.keys.grants(g.agent, g.tool);
    const field = randomBytes(8).toString('hex');
    await this.redis.transaction((tx) => {
      tx.hset(key, field, JSON.stringify(g));
      if (g.session) tx.sadd(this.keys.sessionGrants(g.session), `${key}\n${field}`);
    });
  }

  async grants(agent: string, tool: string): Promise<Grant[]> {
    const key = this.keys.grants(agent, tool);
    const all = await this.redis.run((r) => r.hgetall(key));
    const now = Date.now();
    const live: Grant[] = [];
    const expired: string[] = [];
    for (const [field, text] of Object.entries(all)) {
      const g = parseGrant(text);
      if (g && (g.expiresAt === undefined || g.expiresAt > now)) live.push(g);
      else expired.push(field);
    }
    if (expired.length > 0) await this.redis.run((r) => r.hdel(key, ...expired));
    return live;
  }

  async endSession(session: string): Promise<PendingApproval[]> {
    const grantRefs = await this.redis.run((r) => r.smembers(this.keys.sessionGrants(session)));
    await this.redis.transaction((tx) => {
      for (const ref of grantRefs) {
        const [key, field] = ref.split('\n');
        tx.hdel(key, field);
      }
      tx.del(this.keys.sessionGrants(session));
    });
    const ids = await this.redis.run((r) => r.smembers(this.keys.sessionApprovals(session)));
    const out: PendingApproval[] = [];
    for (const [id, stored] of await this.requests(ids)) {
      if (stored && !(await this.exists(this.keys.verdict(id)))) out.push(stored.pending);
    }
    return out;
  }

  watch(listener: () => void): () => void {
    return this.changes.watch(listener);
  }
}

function parseStored(text: string | null | undefined): StoredRequest | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.owner === 'string' && isObject(v.pending) && typeof v.pending.id === 'string' ? (v as unknown as StoredRequest) : undefined;
}

function parseVerdict(text: string | null | undefined): ApprovalVerdict | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.granted === 'boolean' && typeof v.outcome === 'string' ? (v as unknown as ApprovalVerdict) : undefined;
}

function parseSettled(text: string): { id: string; verdict: ApprovalVerdict } | undefined {
  const v = parseJson(text);
  if (!isObject(v) || typeof v.id !== 'string') return undefined;
  const verdict = parseVerdict(JSON.stringify(v.verdict));
  return verdict && { id: v.id, verdict };
}

function parseGrant(text: string): Grant | undefined {
  const v = parseJson(text);
  return isObject(v) && typeof v.agent === 'string' && typeof v.tool === 'string' && typeof v.definitionHash === 'string' ? (v as unknown as Grant) : undefined;
}
